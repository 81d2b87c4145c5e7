import type { ReactNode } from 'react';

/**
 * One option of a radio group drawn as a card: the whole card is the label, and the checked,
 * disabled and keyboard-focused states show on it. `className` lays out its content and
 * `inputClassName` places (or hides) the radio itself.
 */
export function ChoiceCard({
  name,
  value,
  checked,
  onChoose,
  className,
  inputClassName,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChoose: (value: string) => void;
  className: string;
  inputClassName: string;
  children: ReactNode;
}) {
  return (
    <label
      className={`${className} cursor-pointer rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition-colors hover:border-stone-300 has-[:checked]:border-accent-500 has-[:checked]:bg-accent-50 has-[:checked]:ring-1 has-[:checked]:ring-accent-300 has-[:disabled]:cursor-not-allowed has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-600`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChoose(value)}
        className={inputClassName}
      />
      {children}
    </label>
  );
}
