import type { TemplateGender } from '@studioshot/templates';
import { useId } from 'react';
import { CATEGORY_CHIPS, GENDER_OPTIONS, type CategoryFilter } from './studio-logic';

const chip = (on: boolean) =>
  `rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
    on
      ? 'border-accent-600 bg-accent-600 text-white'
      : 'border-stone-300 bg-white text-stone-800 hover:border-stone-500'
  }`;

/** The Male/Female toggle and the category chips above the carousel. */
export function StudioFilters({
  gender,
  category,
  disabled = false,
  onGender,
  onCategory,
}: {
  gender: TemplateGender;
  category: CategoryFilter;
  disabled?: boolean;
  onGender: (gender: TemplateGender) => void;
  onCategory: (category: CategoryFilter) => void;
}) {
  const genderLabel = useId();
  const categoryLabel = useId();
  return (
    <div className="flex min-w-0 flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-start sm:gap-x-8 lg:flex-1">
      <div role="group" aria-labelledby={genderLabel}>
        <p id={genderLabel} className="text-sm font-medium text-stone-800">
          Templates for
        </p>
        <div className="mt-2 inline-flex rounded-full border border-stone-300 bg-white p-1 shadow-sm">
          {GENDER_OPTIONS.map((option) => {
            const on = option.id === gender;
            return (
              <button
                key={option.id}
                type="button"
                aria-pressed={on}
                disabled={disabled}
                onClick={() => onGender(option.id)}
                className={`rounded-full px-4 py-1.5 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
                  on ? 'bg-stone-900 text-white' : 'text-stone-700 hover:bg-stone-100'
                }`}
              >
                {option.label}
              </button>
            );
          })}
        </div>
      </div>
      <div role="group" aria-labelledby={categoryLabel} className="min-w-0">
        <p id={categoryLabel} className="text-sm font-medium text-stone-800">
          Category
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          {CATEGORY_CHIPS.map((option) => (
            <button
              key={option.id}
              type="button"
              aria-pressed={option.id === category}
              disabled={disabled}
              onClick={() => onCategory(option.id)}
              className={chip(option.id === category)}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
