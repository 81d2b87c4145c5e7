import {
  MESSAGES,
  ZPayRenewalResponseSchema,
  ZTestCardOnFileResponseSchema,
} from '@studioshot/contracts';
import { api } from '../../lib/api';
import type { CardDetails } from './card';

/** Test payment mode: the card renewals charge, attached as a Stripe customer's would be. */
export async function putCardOnFile(card: CardDetails) {
  return api.post(
    '/api/v1/payments/test/card-on-file',
    {
      card: { number: card.number, expiry: card.expiry, cvc: card.cvc, name: card.name.trim() },
    },
    { schema: ZTestCardOnFileResponseSchema, invalid: MESSAGES.cardUpdateFailed },
  );
}

/** A failed renewal paid now with the card on file (test payment mode). */
export async function payRenewal() {
  return api.post('/api/v1/payments/pay-renewal', undefined, {
    schema: ZPayRenewalResponseSchema,
    invalid: MESSAGES.renewalPayFailed,
  });
}
