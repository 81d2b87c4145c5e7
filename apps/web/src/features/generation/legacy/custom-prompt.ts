/** The server uses a custom prompt for premium annual plans and debug accounts only. */
export function customPromptApplies(
  account:
    | {
        plan_type?: string | null;
        subscription_interval?: string | null;
        is_debug?: boolean;
      }
    | null
    | undefined,
): boolean {
  if (!account) return false;
  return (
    account.is_debug === true ||
    (account.plan_type === 'premium' && account.subscription_interval === 'annual')
  );
}

/** Under the prompt box: whether what is typed there is used, in the account's case. */
export function customPromptHint(applies: boolean): string {
  return applies
    ? 'Your description is used as written; "person" stands for you.'
    : 'Descriptions are used as written on the Premium annual plan. Until then, your headshots follow the studio prompt of the style you chose.';
}
