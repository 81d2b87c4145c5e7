/** The settings feature's query keys: the account's sessions, exports, photo sets and deletion. */
export const settingsKeys = {
  sessions: () => ['account', 'sessions'] as const,
  exports: () => ['account', 'exports'] as const,
  photoSets: () => ['account', 'photo-sets'] as const,
  /** An account deletion under way, by its id. */
  deletion: (id: string | null) => ['account-deletion', id] as const,
  /** What the product keeps and for how long. */
  privacy: () => ['privacy'] as const,
};
