/** The generation feature's query keys. */
export const generationKeys = {
  /** The style cards. */
  styles: () => ['generation', 'styles'] as const,
  /** Every page of the gallery. */
  images: () => ['generation', 'images'] as const,
  /** Whether the server's debug setting is on. */
  serverDebug: () => ['health', 'debug'] as const,
};
