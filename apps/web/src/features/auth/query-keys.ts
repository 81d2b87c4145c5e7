/** The auth feature's query keys. */
export const authKeys = {
  /** The signed-in user's profile (GET /api/v1/users/profile): balances, plan, limits. */
  profile: () => ['profile'] as const,
};
