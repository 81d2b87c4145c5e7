/**
 * The profile setup modal opens on each visit while gender is missing; when only the optional age
 * is missing it opens once, and stays closed for the rest of the visit after being dismissed.
 */
let dismissedFor: string | null = null;

export function profilePromptDismissed(userId: string | undefined): boolean {
  return userId !== undefined && dismissedFor === userId;
}

export function dismissProfilePrompt(userId: string | undefined): void {
  dismissedFor = userId ?? null;
}

/** Test helper. */
export function resetProfilePrompt(): void {
  dismissedFor = null;
}
