import type { Template } from '@studioshot/templates';

/**
 * The debug prompt panel (README, Configuration: DEBUG_PROMPTS): what the next Generate sends and the prompt the
 * server will build from it, for accounts with the debug flag or when the server's debug setting
 * is on.
 */
export function DebugPromptPanel({
  template,
  variant,
  modelId,
  triggerWord,
  prompt,
  customUsed,
  reason,
}: {
  template: Template;
  variant: number;
  modelId: string;
  triggerWord: string;
  /** The built prompt. */
  prompt: string;
  customUsed: boolean;
  reason: 'account' | 'server';
}) {
  const variantName = template.variants[variant]?.name ?? String(variant);
  const rows: [string, string][] = [
    ['Template', `${template.id} (${template.name})`],
    ['Variant', `${variant} (${variantName})`],
    ['Model', modelId],
    ['Trigger word', triggerWord],
    ['Prompt source', customUsed ? 'Custom prompt' : 'Template prompt'],
  ];
  return (
    <section
      aria-labelledby="debug-prompt-title"
      className="rounded-2xl border border-dashed border-stone-400 bg-stone-50 p-4"
    >
      <h3 id="debug-prompt-title" className="text-sm font-semibold text-stone-900">
        Debug: prompt
      </h3>
      <p className="mt-0.5 text-xs text-stone-600">
        {reason === 'account'
          ? 'Shown because your account has the debug flag.'
          : "Shown because the server's debug setting is on."}
      </p>
      <dl className="mt-3 space-y-1 text-xs">
        {rows.map(([label, value]) => (
          <div key={label} className="flex gap-2">
            <dt className="w-24 shrink-0 text-stone-600">{label}</dt>
            <dd className="min-w-0 font-mono break-all text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-stone-600">Prompt sent to the engine</p>
      <pre
        data-testid="debug-prompt"
        className="mt-1 rounded-lg bg-white p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-stone-900 ring-1 ring-stone-200"
      >
        {prompt}
      </pre>
    </section>
  );
}
