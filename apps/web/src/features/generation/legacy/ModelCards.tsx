import { labelClass } from '../../../components/ui';
import { formatDate } from '../../payments/catalogue';
import { shortId } from '../../training/training-logic';
import { ChoiceCard } from '../ChoiceCard';
import { modelName, type ModelChoice } from '../model-choice';

/** The ready models as one radio group: name, created date and the first 8 characters of the id. */
export function ModelCards({
  choice,
  disabled = false,
  legend = 'Trained model',
}: {
  choice: ModelChoice;
  disabled?: boolean;
  legend?: string;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>{legend}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {choice.models.map((model) => {
          const created = formatDate(model.created_at);
          return (
            <ChoiceCard
              key={model.id}
              name="model"
              value={model.id}
              checked={model.id === choice.model.id}
              onChoose={choice.setModelId}
              className="flex items-start gap-3"
              inputClassName="mt-1 size-4 shrink-0 accent-accent-600"
            >
              <span className="min-w-0">
                <span className="block font-medium break-words text-stone-950">
                  {modelName(model)}
                </span>
                <span className="mt-1 flex flex-wrap gap-x-3 text-sm text-stone-600">
                  {created && <span>Created {created}</span>}
                  <span>
                    ID <span className="font-mono text-xs">{shortId(model.id)}</span>
                  </span>
                </span>
              </span>
            </ChoiceCard>
          );
        })}
      </div>
    </fieldset>
  );
}
