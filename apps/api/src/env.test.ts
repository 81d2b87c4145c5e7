import { describe, expect, it } from 'vitest';
import { DEV_CONVENIENCES } from '@studioshot/contracts';
import {
  DEVELOPMENT_SOCIAL_PROOF,
  EnvError,
  loadEnv,
  productionWarnings,
  socialProof,
  webOrigins,
} from './env.js';

const valid = {
  DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  JWT_SECRET: 'x'.repeat(32),
};
/** A production configuration with every development convenience off. */
const production = {
  ...valid,
  NODE_ENV: 'production',
  MAIL_TRANSPORT: 'smtp',
  SMTP_URL: 'smtp://mail.example.com:587',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
};

describe('loadEnv', () => {
  it('fills the defaults', () => {
    const env = loadEnv(valid);
    expect(env.PORT).toBe(8080);
    expect(env.ACCESS_TOKEN_TTL_SECONDS).toBe(3600);
    expect(env.BCRYPT_COST).toBe(12);
    expect(env.MAIL_TRANSPORT).toBe('outbox');
  });

  it('names a missing variable', () => {
    expect(() => loadEnv({ ...valid, JWT_SECRET: undefined })).toThrow(
      /JWT_SECRET: is required but not set/,
    );
  });

  it('names every bad variable at once', () => {
    let message = '';
    try {
      loadEnv({ ...valid, PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/JWT_SECRET: must be at least 32 characters/);
  });

  it('refuses a bcrypt cost under 12', () => {
    expect(() => loadEnv({ ...valid, BCRYPT_COST: '10' })).toThrow(/BCRYPT_COST/);
  });

  it('requires SMTP_URL with the smtp transport', () => {
    expect(() => loadEnv({ ...valid, MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL/);
  });

  it('fills the training and queue defaults', () => {
    expect(loadEnv(valid)).toMatchObject({
      ENGINE_KIND: 'studio',
      TRAINING_ATTEMPTS: 3,
      GENERATION_ATTEMPTS: 3,
      TASK_NO_WORKER_TIMEOUT_MS: 900_000,
      GPU_HOURLY_RATE: 2.49,
      ALWAYS_ON_MONTHLY_COST: 1130,
      GENERATION_WAIT_MS: 8_000,
      UPLOAD_CHECKS_WAIT_MS: 8_000,
    });
    expect(() => loadEnv({ ...valid, UPLOAD_CHECKS_WAIT_MS: '10000' })).toThrow(
      /UPLOAD_CHECKS_WAIT_MS/,
    );
    expect(loadEnv({ ...valid, GENERATION_WAIT_MS: '0' }).GENERATION_WAIT_MS).toBe(0);
    expect(() => loadEnv({ ...valid, GENERATION_WAIT_MS: '-1' })).toThrow(/GENERATION_WAIT_MS/);
    expect(() => loadEnv({ ...valid, GENERATION_WAIT_MS: '999999999' })).toThrow(
      /GENERATION_WAIT_MS/,
    );
    expect(() => loadEnv({ ...valid, TRAINING_ATTEMPTS: '0' })).toThrow(/TRAINING_ATTEMPTS/);
    expect(() => loadEnv({ ...valid, GPU_HOURLY_RATE: '-1' })).toThrow(/GPU_HOURLY_RATE/);
    expect(() => loadEnv({ ...valid, ENGINE_KIND: 'gpu' })).toThrow(/ENGINE_KIND/);
    expect(() => loadEnv({ ...valid, TASK_NO_WORKER_TIMEOUT_MS: '0' })).toThrow(
      /TASK_NO_WORKER_TIMEOUT_MS/,
    );
  });

  it('on SIGTERM keeps serving 5 s with /health failing, unless told otherwise, at most a minute', () => {
    expect(loadEnv(valid).SHUTDOWN_READINESS_DELAY_MS).toBe(5_000);
    expect(
      loadEnv({ ...valid, SHUTDOWN_READINESS_DELAY_MS: '0' }).SHUTDOWN_READINESS_DELAY_MS,
    ).toBe(0);
    expect(() => loadEnv({ ...valid, SHUTDOWN_READINESS_DELAY_MS: '60001' })).toThrow(
      /SHUTDOWN_READINESS_DELAY_MS/,
    );
  });

  it('knows no cold start unless told, and a kind at zero gets time to start before its tasks fail', () => {
    expect(loadEnv(valid).ENGINE_COLD_START_SECONDS).toEqual({});
    expect(
      loadEnv({ ...valid, ENGINE_COLD_START_SECONDS: 'flux=60' }).ENGINE_COLD_START_SECONDS,
    ).toEqual({ flux: 60 });
    expect(() => loadEnv({ ...valid, ENGINE_COLD_START_SECONDS: 'gpu=60' })).toThrow(
      /ENGINE_COLD_START_SECONDS/,
    );
    expect(() => loadEnv({ ...valid, ENGINE_COLD_START_SECONDS: 'flux=soon' })).toThrow(
      /ENGINE_COLD_START_SECONDS/,
    );
    expect(() =>
      loadEnv({
        ...valid,
        ENGINE_COLD_START_SECONDS: 'flux=60',
        TASK_NO_WORKER_TIMEOUT_MS: '60000',
      }),
    ).toThrow(/TASK_NO_WORKER_TIMEOUT_MS: must be longer than flux's cold start/);
  });

  it('allows /ws from the listed web origins, PUBLIC_URL, and the dev servers outside production', () => {
    expect(webOrigins(loadEnv(valid))).toEqual(['http://localhost:5173', 'http://localhost:4173']);
    expect(
      webOrigins(
        loadEnv({
          ...production,
          WEB_ORIGINS: 'https://app.example.com/, https://www.example.com',
          PUBLIC_URL: 'https://studioshot.example/welcome',
        }),
      ),
    ).toEqual(['https://app.example.com', 'https://www.example.com', 'https://studioshot.example']);
    expect(webOrigins(loadEnv({ ...production }))).toEqual([]);
    expect(() => loadEnv({ ...valid, WEB_ORIGINS: 'app.example.com' })).toThrow(/WEB_ORIGINS/);
  });

  it('fills safe auth defaults: limits, bcrypt concurrency, refresh grace, no trusted proxy', () => {
    expect(loadEnv(valid)).toMatchObject({
      LOGIN_MAX_PER_ACCOUNT: 10,
      LOGIN_MAX_PER_ACCOUNT_ADDRESS: 10,
      LOGIN_MAX_PER_IP: 50,
      LOGIN_WINDOW_SECONDS: 900,
      FORGOT_MAX_PER_ACCOUNT_ADDRESS: 5,
      FORGOT_MAX_PER_IP: 20,
      FORGOT_WINDOW_SECONDS: 3600,
      RESET_MAX_PER_IP: 20,
      REGISTER_MAX_PER_IP: 20,
      REGISTER_WINDOW_SECONDS: 3600,
      BCRYPT_CONCURRENCY: 2,
      REFRESH_GRACE_SECONDS: 30,
      TRUST_PROXY: false,
    });
    // Production starts with them as they are.
    expect(loadEnv(production).BCRYPT_CONCURRENCY).toBe(2);
    expect(loadEnv({ ...valid, BCRYPT_CONCURRENCY: '4' }).BCRYPT_CONCURRENCY).toBe(4);
    expect(() => loadEnv({ ...valid, BCRYPT_CONCURRENCY: '0' })).toThrow(/BCRYPT_CONCURRENCY/);
    expect(loadEnv({ ...valid, REFRESH_GRACE_SECONDS: '0' }).REFRESH_GRACE_SECONDS).toBe(0);
    // A long grace would blunt reuse detection: at most two minutes.
    expect(() => loadEnv({ ...valid, REFRESH_GRACE_SECONDS: '600' })).toThrow(
      /REFRESH_GRACE_SECONDS/,
    );
    expect(() => loadEnv({ ...valid, RESET_MAX_PER_IP: '0' })).toThrow(/RESET_MAX_PER_IP/);
  });

  it('Stripe mode needs its three keys, the publishable one of the same mode as the secret', () => {
    const stripe = { ...valid, PAYMENT_PROVIDER: 'stripe', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(
      loadEnv({ ...stripe, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' })
        .STRIPE_PUBLISHABLE_KEY,
    ).toBe('pk_test_x');
    expect(() => loadEnv({ ...stripe, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is required when PAYMENT_PROVIDER=stripe/,
    );
    // A secret key where the public one belongs would be published to every browser.
    expect(() =>
      loadEnv({ ...stripe, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'sk_test_x' }),
    ).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() =>
      loadEnv({ ...stripe, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }),
    ).toThrow(/STRIPE_PUBLISHABLE_KEY: is a test key but STRIPE_SECRET_KEY is a live key/);
    // Test mode needs none of them.
    expect(loadEnv(valid).STRIPE_PUBLISHABLE_KEY).toBeUndefined();
  });

  it('deletes training photos 30 days after training unless told otherwise, within a year', () => {
    expect(loadEnv(valid).PHOTO_RETENTION_DAYS).toBe(30);
    expect(loadEnv(production).PHOTO_RETENTION_DAYS).toBe(30);
    expect(loadEnv({ ...valid, PHOTO_RETENTION_DAYS: '7' }).PHOTO_RETENTION_DAYS).toBe(7);
    for (const bad of ['0', '-1', '366', '2.5', 'forever'])
      expect(() => loadEnv({ ...valid, PHOTO_RETENTION_DAYS: bad })).toThrow(
        /PHOTO_RETENTION_DAYS/,
      );
  });

  it('treats empty strings as unset', () => {
    expect(loadEnv({ ...valid, PORT: '' }).PORT).toBe(8080);
  });
});

describe('production refuses development conveniences', () => {
  /** What turns each convenience on, by the setting it names. */
  const turnOn: Record<string, Record<string, string | undefined>> = {
    'MAIL_TRANSPORT=outbox': { MAIL_TRANSPORT: undefined, SMTP_URL: undefined },
    'PAYMENT_PROVIDER=test': { PAYMENT_PROVIDER: 'test' },
    STRIPE_API_BASE: { STRIPE_API_BASE: 'http://127.0.0.1:12111' },
    'DEBUG_PROMPTS=true': { DEBUG_PROMPTS: 'true' },
    'TEST_CLOCK=true': { TEST_CLOCK: 'true' },
    'CONFIRM_PAYS_WITH_TEST_CARD=true': { CONFIRM_PAYS_WITH_TEST_CARD: 'true' },
    'GENERATION_WAIT_MS above 8000': { GENERATION_WAIT_MS: '20000' },
    'LOGIN_MAX_PER_ACCOUNT above 10': { LOGIN_MAX_PER_ACCOUNT: '1000' },
    'LOGIN_MAX_PER_ACCOUNT_ADDRESS above 10': { LOGIN_MAX_PER_ACCOUNT_ADDRESS: '1000' },
    'LOGIN_MAX_PER_IP above 50': { LOGIN_MAX_PER_IP: '1000' },
    'FORGOT_MAX_PER_ACCOUNT_ADDRESS above 5': { FORGOT_MAX_PER_ACCOUNT_ADDRESS: '1000' },
    'FORGOT_MAX_PER_IP above 20': { FORGOT_MAX_PER_IP: '1000' },
    'RESET_MAX_PER_IP above 20': { RESET_MAX_PER_IP: '1000' },
    'REGISTER_MAX_PER_IP above 20': { REGISTER_MAX_PER_IP: '1000' },
    'HTTP_METRICS=false': { HTTP_METRICS: 'false' },
  };

  it('starts with every convenience off, and says nothing', () => {
    const env = loadEnv(production);
    expect(productionWarnings(env)).toEqual([]);
  });

  it.each(DEV_CONVENIENCES.filter((c) => c.apps.includes('api')).map((c) => [c.setting]))(
    '%s on: refused, naming it',
    (setting) => {
      const on = turnOn[setting];
      // A convenience added to the list needs its case here: this test walks the whole list.
      expect(on, `how to turn on ${setting}`).toBeDefined();
      expect(() => loadEnv({ ...production, ...on })).toThrow(EnvError);
      expect(() => loadEnv({ ...production, ...on })).toThrow(setting);
      // The same settings outside production are fine.
      expect(() => loadEnv({ ...production, ...on, NODE_ENV: 'development' })).not.toThrow();
    },
  );

  it('metrics: on a private port apart from the public one, timing requests by default', () => {
    const env = loadEnv(production);
    expect(env.METRICS_PORT).toBe(9464);
    expect(env.HTTP_METRICS).toBe(true);
    // Outside production any free port, so side-by-side processes never collide.
    expect(loadEnv(valid).METRICS_PORT).toBe(0);
    expect(loadEnv({ ...production, METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(() => loadEnv({ ...production, PORT: '9464' })).toThrow(/METRICS_PORT: must differ/);
    expect(() => loadEnv({ ...valid, METRICS_PORT: 'none' })).toThrow(/METRICS_PORT/);
    expect(loadEnv({ ...valid, HTTP_METRICS: 'false' }).HTTP_METRICS).toBe(false);
  });

  it('the default mail and payment settings are refused in production (as docker-compose once shipped)', () => {
    expect(() => loadEnv({ ...valid, NODE_ENV: 'production' })).toThrow(
      /MAIL_TRANSPORT=outbox[\s\S]*PAYMENT_PROVIDER=test/,
    );
  });

  it('the test clock is on by default outside production only, and never allowed there', () => {
    expect(loadEnv(valid).TEST_CLOCK).toBe(true);
    expect(loadEnv({ ...valid, TEST_CLOCK: 'false' }).TEST_CLOCK).toBe(false);
    expect(loadEnv(production).TEST_CLOCK).toBe(false);
    // A staging site taking test cards still has no clock, and cannot turn it on.
    const staging = {
      ...production,
      PAYMENT_PROVIDER: 'test',
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    };
    expect(loadEnv(staging).TEST_CLOCK).toBe(false);
    expect(() => loadEnv({ ...staging, TEST_CLOCK: 'true' })).toThrow(/TEST_CLOCK=true/);
  });

  it('confirms pay with the test card by default outside production only, and never there', () => {
    expect(loadEnv(valid).CONFIRM_PAYS_WITH_TEST_CARD).toBe(true);
    expect(loadEnv({ ...valid, CONFIRM_PAYS_WITH_TEST_CARD: 'false' })).toMatchObject({
      CONFIRM_PAYS_WITH_TEST_CARD: false,
    });
    expect(loadEnv(production).CONFIRM_PAYS_WITH_TEST_CARD).toBe(false);
    const staging = {
      ...production,
      PAYMENT_PROVIDER: 'test',
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    };
    expect(loadEnv(staging).CONFIRM_PAYS_WITH_TEST_CARD).toBe(false);
    expect(() => loadEnv({ ...staging, CONFIRM_PAYS_WITH_TEST_CARD: 'true' })).toThrow(
      /CONFIRM_PAYS_WITH_TEST_CARD=true/,
    );
  });

  it('a Generate answers within the spec client timeout in production', () => {
    expect(loadEnv(production).GENERATION_WAIT_MS).toBeLessThan(10_000);
    expect(() => loadEnv({ ...production, GENERATION_WAIT_MS: '10000' })).toThrow(
      /GENERATION_WAIT_MS above 8000/,
    );
  });

  it('the test provider is allowed only by its loudly named setting, and then announced', () => {
    const staging = loadEnv({
      ...production,
      PAYMENT_PROVIDER: 'test',
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    });
    expect(productionWarnings(staging)).toEqual([
      expect.stringMatching(
        /^PAYMENT_PROVIDER=test is on \(ALLOW_TEST_PAYMENTS_IN_PRODUCTION=true\)/,
      ),
    ]);
  });
});

describe('social proof: a figure is quoted only when set, with its source', () => {
  it('production quotes nothing by default', () => {
    expect(socialProof(loadEnv(production))).toEqual({
      rating: null,
      rating_count: null,
      source: null,
      development_default: false,
    });
  });

  it('outside production the sample figures show, marked as a development default', () => {
    expect(socialProof(loadEnv(valid))).toEqual(DEVELOPMENT_SOCIAL_PROOF);
    expect(socialProof(loadEnv({ ...valid, NODE_ENV: 'test' })).development_default).toBe(true);
  });

  it('the settings win everywhere, each figure on its own', () => {
    const set = {
      SOCIAL_PROOF_RATING: '4.6',
      SOCIAL_PROOF_RATING_COUNT: '312',
      SOCIAL_PROOF_SOURCE: 'Trustpilot, November 2026',
    };
    for (const base of [valid, production])
      expect(socialProof(loadEnv({ ...base, ...set }))).toEqual({
        rating: 4.6,
        rating_count: 312,
        source: 'Trustpilot, November 2026',
        development_default: false,
      });
    expect(
      socialProof(
        loadEnv({
          ...valid,
          SOCIAL_PROOF_RATING_COUNT: '40',
          SOCIAL_PROOF_SOURCE: 'Our customers',
        }),
      ),
    ).toEqual({
      rating: null,
      rating_count: 40,
      source: 'Our customers',
      development_default: false,
    });
  });

  it('refuses a figure without its source, a source without a figure, and a rating above 5', () => {
    expect(() => loadEnv({ ...production, SOCIAL_PROOF_RATING: '4.9' })).toThrow(
      /SOCIAL_PROOF_SOURCE: is required with SOCIAL_PROOF_RATING/,
    );
    expect(() => loadEnv({ ...valid, SOCIAL_PROOF_SOURCE: 'Trustpilot' })).toThrow(
      /SOCIAL_PROOF_SOURCE: names the source/,
    );
    expect(() =>
      loadEnv({ ...valid, SOCIAL_PROOF_RATING: '5.1', SOCIAL_PROOF_SOURCE: 'x' }),
    ).toThrow(/SOCIAL_PROOF_RATING/);
    expect(() =>
      loadEnv({ ...valid, SOCIAL_PROOF_RATING_COUNT: '12.5', SOCIAL_PROOF_SOURCE: 'x' }),
    ).toThrow(/SOCIAL_PROOF_RATING_COUNT/);
  });
});
