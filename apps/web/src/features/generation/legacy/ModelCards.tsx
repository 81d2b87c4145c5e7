import { labelClass } from '../../../components/ui';
import { formatDate } from '../../payments/catalogue';
import type { UserModel } from '../../training/training-api';
import { shortId } from '../../training/training-logic';

/** The ready models as one radio group: name, created date and the first 8 characters of the id. */
export function ModelCards({
  models,
  value,
  onChange,
  disabled = false,
  legend = 'Trained model',
}: {
  models: readonly UserModel[];
  value: string;
  onChange: (modelId: string) => void;
  disabled?: boolean;
  legend?: string;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>{legend}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {models.map((model) => {
          const created = formatDate(model.created_at);
          return (
            <label
              key={model.id}
              className="flex cursor-pointer items-start gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition-colors hover:border-stone-300 has-[:checked]:border-accent-500 has-[:checked]:bg-accent-50 has-[:checked]:ring-1 has-[:checked]:ring-accent-300 has-[:disabled]:cursor-not-allowed has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-600"
            >
              <input
                type="radio"
                name="model"
                value={model.id}
                checked={value === model.id}
                onChange={() => onChange(model.id)}
                className="mt-1 size-4 shrink-0 accent-accent-600"
              />
              <span className="min-w-0">
                <span className="block font-medium break-words text-stone-950">
                  {model.name || `Model ${shortId(model.id)}`}
                </span>
                <span className="mt-1 flex flex-wrap gap-x-3 text-sm text-stone-600">
                  {created && <span>Created {created}</span>}
                  <span>
                    ID <span className="font-mono text-xs">{shortId(model.id)}</span>
                  </span>
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
