import { templateDescription } from '@studioshot/templates';
import { Spinner } from '../../components/PageState';
import { labelClass } from '../../components/ui';
import { ChoiceCard } from './ChoiceCard';
import { useStyles } from './hooks';

/** How many of a style's use cases its card lists (product spec: the first 2). */
export const USE_CASES_SHOWN = 2;

/**
 * The style cards (GET /api/v1/generation/styles) as one radio group: name, the description for
 * the engine that will render (`engine`: the model's model_type), and the first 2 use cases.
 * Loading and failure say so in place, with a Retry.
 */
export function StyleCards({
  value,
  onChange,
  engine,
  disabled = false,
  legend = 'Style',
}: {
  value: string;
  onChange: (styleId: string) => void;
  engine: string;
  disabled?: boolean;
  legend?: string;
}) {
  const query = useStyles();
  const styles = query.data ?? [];
  const failed = query.isError;
  const loading = query.isPending;
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>{legend}</legend>
      {failed && styles.length === 0 && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Could not load the styles.{' '}
          <button
            type="button"
            onClick={() => void query.refetch()}
            className="font-medium underline underline-offset-4"
          >
            Retry
          </button>
        </p>
      )}
      {loading && styles.length === 0 && (
        // Cards-sized placeholders: the rest of the form does not jump when the styles arrive.
        <div aria-busy="true" className="mt-3 grid gap-3 sm:grid-cols-3">
          <p className="sr-only" role="status">
            Loading styles...
          </p>
          {[0, 1, 2].map((n) => (
            <div
              key={n}
              aria-hidden="true"
              className="flex min-h-44 items-start rounded-2xl border border-stone-200 bg-stone-50 p-4"
            >
              {n === 0 && (
                <span className="flex items-center gap-2 text-sm text-stone-600">
                  <Spinner className="size-4" /> Loading styles...
                </span>
              )}
            </div>
          ))}
        </div>
      )}
      <div className="mt-3 grid gap-3 empty:hidden sm:grid-cols-3">
        {styles.map((style) => (
          <ChoiceCard
            key={style.id}
            name="style"
            value={style.id}
            checked={value === style.id}
            onChoose={onChange}
            className="relative flex flex-col"
            inputClassName="sr-only"
          >
            <span className="font-medium text-stone-950">{style.name}</span>
            <span className="mt-1 text-sm text-stone-600">
              {templateDescription(style, engine)}
            </span>
            <span className="mt-auto flex flex-wrap gap-1.5 pt-3">
              {style.use_cases.slice(0, USE_CASES_SHOWN).map((use) => (
                <span
                  key={use}
                  className="rounded-full bg-stone-100 px-2 py-0.5 text-xs text-stone-700"
                >
                  {use}
                </span>
              ))}
            </span>
          </ChoiceCard>
        ))}
      </div>
    </fieldset>
  );
}
