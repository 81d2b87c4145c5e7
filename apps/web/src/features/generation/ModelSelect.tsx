import { useId } from 'react';
import { inputClass, labelClass } from '../../components/ui';
import { modelName, type ModelChoice } from './model-choice';

/** The ready models as a 'Trained model' drop-down. */
export function ModelSelect({
  choice,
  disabled,
  className,
}: {
  choice: ModelChoice;
  disabled: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        Trained model
      </label>
      <select
        id={id}
        value={choice.model.id}
        onChange={(event) => choice.setModelId(event.target.value)}
        disabled={disabled}
        className={`${inputClass} mt-2`}
      >
        {choice.models.map((model) => (
          <option key={model.id} value={model.id}>
            {modelName(model)}
          </option>
        ))}
      </select>
    </div>
  );
}
