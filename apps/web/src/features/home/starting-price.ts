import { GENERATION_ORDER } from '@studioshot/pricing/generation-order';
import { formatDollars } from '../payments/format-dollars';

/**
 * The one-off order's price (packages/pricing): what 'starting at' quotes. Read from the order's
 * own module, not the catalogue, so the landing page's first JS stays small.
 */
export const STARTING_PRICE = formatDollars(GENERATION_ORDER.price_cents, { compact: true });
