import { ZSocialProofSchema } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_SOCIAL_PROOF } from '../src/env.js';
import { createTestApp } from './helpers.js';

describe('GET /api/v1/social-proof', () => {
  it('answers the settings, publicly, and the marked sample figures when none are set', async () => {
    for (const [settings, expected] of [
      [{}, DEVELOPMENT_SOCIAL_PROOF],
      [
        { SOCIAL_PROOF_RATING: '4.6', SOCIAL_PROOF_SOURCE: 'Trustpilot, November 2026' },
        {
          rating: 4.6,
          rating_count: null,
          source: 'Trustpilot, November 2026',
          development_default: false,
        },
      ],
    ] as const) {
      const t = await createTestApp(settings);
      try {
        const res = await t.request.get('/api/v1/social-proof');
        expect(res.status).toBe(200);
        expect(ZSocialProofSchema.parse(res.body)).toEqual(expected);
      } finally {
        await t.close();
      }
    }
  });
});
