// Plain code, no zod: safe to import from the smallest web bundle.

/** What decides whether an account's custom prompt is used: a profile or a user row. */
export interface CustomPromptAccount {
  plan_type?: string | null;
  subscription_interval?: string | null;
  is_debug?: boolean | null;
}

/**
 * Whether a custom prompt is used instead of the template's (spec: prompt building): for premium
 * plans billed annually and for debug accounts. The server's debug setting, which opens it to
 * everyone, is the server's own extra condition.
 */
export function customPromptApplies(account: CustomPromptAccount | null | undefined): boolean {
  if (!account) return false;
  return (
    account.is_debug === true ||
    (account.plan_type === 'premium' && account.subscription_interval === 'annual')
  );
}
