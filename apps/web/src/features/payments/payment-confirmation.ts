import { ApiError } from '../../lib/api-client';
import { confirmPayment } from './payments-api';

/** How long the page waits between asks, growing to the last figure, and how many asks. */
const RETRY_DELAYS_MS = [500, 1000, 1000, 2000, 2000, 3000];
const MAX_ASKS = 20;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The server's answers while its view of the intent lags behind Stripe.js: still processing at
 * the bank (409), or not yet paid as the server last read it (402). The page only asks after
 * Stripe.js took the card, so both mean "not heard of yet".
 */
const NOT_HEARD_YET = new Set(['payment_incomplete', 'payment_required']);

/**
 * After Stripe.js took the card: asks the server to confirm the payment until it has recorded it
 * (at once, usually; a bank still processing, or Stripe's event arriving first, takes longer).
 * Answers false when it is still not confirmed after about a minute; any other answer than
 * 'not heard of yet' ends the wait (the order's own confirm call then says what is wrong).
 */
export async function waitForPaymentConfirmation(
  paymentIntentId: string,
  options: { maxAsks?: number; delaysMs?: readonly number[] } = {},
): Promise<boolean> {
  const maxAsks = options.maxAsks ?? MAX_ASKS;
  const delays = options.delaysMs ?? RETRY_DELAYS_MS;
  for (let ask = 0; ask < maxAsks; ask += 1) {
    try {
      await confirmPayment(paymentIntentId);
      return true;
    } catch (error) {
      if (!(error instanceof ApiError && NOT_HEARD_YET.has(error.code))) return true;
    }
    if (ask < maxAsks - 1) await wait(delays[Math.min(ask, delays.length - 1)] ?? 1000);
  }
  return false;
}
