/**
 * One generation order on the post-payment page: 4 headshots for $29. The payment itself pays for
 * exactly one generation (bound to it, no credits granted); it is refunded if that generation
 * fails for good. Its own module so the landing page can quote it without the whole catalogue.
 */
export const GENERATION_ORDER = { price_cents: 2900, images: 4 } as const;
