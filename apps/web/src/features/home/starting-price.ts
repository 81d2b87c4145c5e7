import { PLANS_FROM_CENTS } from '@studioshot/pricing/entry-prices';
import { GENERATION_ORDER } from '@studioshot/pricing/generation-order';
import { formatDollars } from '../payments/format-dollars';

/*
 * The prices the landing page quotes, read from packages/pricing's small modules rather than the
 * whole catalogue, so the landing page's first JS stays small.
 */

/** The lowest plan's monthly price: what training starts at. */
export const PLANS_FROM = formatDollars(PLANS_FROM_CENTS);

/** The one-off order of 4 more headshots, for someone who already has a trained model. */
export const ORDER_PRICE = formatDollars(GENERATION_ORDER.price_cents, { compact: true });
export const ORDER_IMAGES = GENERATION_ORDER.images;
