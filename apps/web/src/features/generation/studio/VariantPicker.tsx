import type { Template } from '@studioshot/templates';
import { variantImage } from './studio-logic';

/**
 * The variant thumbnails of the selected template, when it has more than one (spec: templates
 * 1-46 have 3). The row keeps its height either way, so moving through the carousel never moves
 * what is below it.
 */
export function VariantPicker({
  template,
  variant,
  onChoose,
}: {
  template: Template;
  variant: number;
  onChoose: (variant: number) => void;
}) {
  const many = template.variants.length > 1;
  return (
    <div className="mt-5 flex min-h-[8.25rem] flex-col items-center">
      {many ? (
        <div
          role="group"
          aria-label={`Variants of ${template.name}`}
          className="flex flex-col items-center"
        >
          <p
            aria-hidden="true"
            className="text-xs font-semibold tracking-[0.14em] text-stone-600 uppercase"
          >
            Variant
          </p>
          <div className="mt-2 flex flex-wrap justify-center gap-3">
            {template.variants.map((v) => {
              const chosen = v.index === variant;
              return (
                <button
                  key={v.index}
                  type="button"
                  aria-pressed={chosen}
                  onClick={() => onChoose(v.index)}
                  className={`flex w-[4.5rem] flex-col items-center gap-1 rounded-xl p-1 text-xs font-medium transition-colors ${
                    chosen
                      ? 'bg-accent-50 text-accent-800 ring-2 ring-accent-600'
                      : 'text-stone-700 ring-1 ring-stone-300 hover:ring-stone-500'
                  }`}
                >
                  <img
                    src={variantImage(template, v)}
                    alt=""
                    width={400}
                    height={450}
                    loading="lazy"
                    decoding="async"
                    draggable={false}
                    className="aspect-[400/450] h-auto w-full rounded-lg bg-stone-200 object-cover"
                  />
                  <span className="w-full truncate text-center">{v.name}</span>
                </button>
              );
            })}
          </div>
        </div>
      ) : (
        <p className="mt-6 max-w-xs text-center text-sm text-stone-600">
          This template has one look, shown above.
        </p>
      )}
    </div>
  );
}
