import { useCallback, useRef, useState } from 'react';
import type { IntentRef } from './payments-api';

/** A fresh Idempotency-Key for one checkout: every Pay press of it asks for the same intent. */
function newCheckoutKey(): string {
  return `checkout-${crypto.randomUUID()}`;
}

/**
 * The payment intent of one checkout, made when Pay is first pressed and never before: creating
 * an intent stores a pending payment, which a visit that does not pay must not leave behind.
 * Every later press gets the same intent, and a failed create is sent again with the same
 * Idempotency-Key, so the server answers the intent it may already have made.
 */
export function useIntentOnPay<T extends IntentRef>(
  create: (idempotencyKey: string) => Promise<T>,
  options: {
    /** An intent made before (a resumed checkout): it is the one paid. */
    existing?: T | null;
    /** Called once, with the intent made. */
    onCreated?: (intent: T) => void;
  } = {},
): () => Promise<T> {
  const [key] = useState(newCheckoutKey);
  const made = useRef<Promise<T> | null>(
    options.existing ? Promise.resolve(options.existing) : null,
  );
  const latest = useRef({ create, onCreated: options.onCreated });
  latest.current = { create, onCreated: options.onCreated };
  return useCallback(() => {
    if (!made.current) {
      const creating = latest.current.create(key).then((intent) => {
        latest.current.onCreated?.(intent);
        return intent;
      });
      made.current = creating;
      // A failure is tried again on the next press (same key); a success is kept.
      creating.catch(() => {
        if (made.current === creating) made.current = null;
      });
    }
    return made.current;
  }, [key]);
}
