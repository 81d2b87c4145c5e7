import { useId, type ReactNode } from 'react';

/** The longest prompt a Generate call takes (the contracts' generation request). */
const PROMPT_MAX_LENGTH = 1000;

/** A generation page's prompt box (its label is the page's), with the hint that describes it. */
export function PromptField({
  id,
  value,
  onChange,
  disabled,
  rows,
  placeholder,
  className,
  hint,
  hintClassName = 'mt-2',
}: {
  id: string;
  value: string;
  onChange: (prompt: string) => void;
  disabled: boolean;
  rows: number;
  placeholder?: string;
  className: string;
  hint: ReactNode;
  hintClassName?: string;
}) {
  const hintId = useId();
  return (
    <>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        rows={rows}
        maxLength={PROMPT_MAX_LENGTH}
        aria-describedby={hintId}
        placeholder={placeholder}
        className={className}
      />
      <p id={hintId} className={`${hintClassName} text-xs text-stone-600`}>
        {hint}
      </p>
    </>
  );
}
