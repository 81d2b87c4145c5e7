import {
  ALLOW_TEST_PAYMENTS_SETTING,
  allowedInProduction,
  ENGINE_KINDS,
  PRODUCTION_GENERATION_WAIT_MS,
  PRODUCTION_RATE_LIMITS,
  productionRefusal,
  type SocialProof,
} from '@studioshot/contracts';
import { STORAGE_SETTINGS } from '@studioshot/contracts/storage-settings';
import { ALWAYS_ON_COST } from '@studioshot/pricing';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A rate limit, defaulting to what production runs with (raising it is a dev convenience). */
const limit = (name: keyof typeof PRODUCTION_RATE_LIMITS) =>
  z.coerce.number().int().positive().default(PRODUCTION_RATE_LIMITS[name]);

/** Express `trust proxy` names besides addresses and subnets. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** `flux=60,studio=30` as { flux: 60, studio: 30 }; anything unparsable is left for the schema. */
function parseColdStarts(value: string): Record<string, unknown> {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [kind = '', seconds = ''] = entry.split('=').map((part) => part.trim());
      return [kind, /^\d+$/.test(seconds) ? Number(seconds) : seconds] as const;
    });
  return Object.fromEntries(entries);
}

/**
 * TRUST_PROXY as Express takes it: false, a hop count, or the list of trusted proxy addresses.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        "true would trust any X-Forwarded-For, so a client could choose its own address; set the number of proxy hops or the proxies' addresses",
    });
    return z.NEVER;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrSubnet(entry));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected false, a hop count, or proxy addresses/subnets (loopback, 10.0.0.2, 172.16.0.0/12); not ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
}

/** Every setting the API reads, validated once at start. */
export const ZEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }),
    /** Prefix for every Redis key this process writes; lets test suites share one Redis. */
    REDIS_PREFIX: z.string().default('studioshot:'),
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    JWT_ISSUER: z.string().default('studioshot-api'),
    JWT_AUDIENCE: z.string().default('studioshot-web'),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
    BCRYPT_COST: z.coerce.number().int().min(12).max(15).default(12),
    APP_VERSION: z.string().default('unknown'),
    PUBLIC_URL: z.url().optional(),
    WEB_DIST: z.string().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /**
     * The private metrics listener (GET /metrics, GET /queue-load): a second port, on every
     * interface so the cluster's scrapers reach it, which the deployment never publishes. Default
     * 9464 in production; elsewhere 0, a free port (logged), so the processes tests and benches
     * start side by side never collide.
     */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /**
     * Times every request by route for /metrics. Off only to measure what the timing costs (the
     * metrics bench); production refuses it off.
     */
    HTTP_METRICS: bool.default(true),
    /**
     * Which proxies in front of the API may name the client in X-Forwarded-For (Express's
     * `trust proxy`): `false` (the default: none, the socket's address is the client), a number of
     * hops, or a comma-separated list of the proxies' addresses or subnets (the exact way: a
     * client can never name itself). `true` (trust anything) is refused: anyone could then pick
     * their own address and walk around every per-address limit.
     */
    TRUST_PROXY: z.string().trim().default('false').transform(parseTrustProxy),
    MAIL_TRANSPORT: z.enum(['outbox', 'smtp']).default('outbox'),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Studioshot <no-reply@studioshot.local>'),
    /** forgot-password answers no sooner than this, so known and unknown e-mails look alike. */
    FORGOT_PASSWORD_MIN_MS: z.coerce.number().int().min(0).default(400),
    /**
     * Sign-in limits (OWASP): failed sign-ins per account from devices without a device cookie,
     * across all addresses (soft: such devices then wait a growing time, known devices never);
     * per (account, address) and per known device (hard); per address (hard). All per window.
     */
    LOGIN_MAX_PER_ACCOUNT: limit('LOGIN_MAX_PER_ACCOUNT'),
    LOGIN_MAX_PER_ACCOUNT_ADDRESS: limit('LOGIN_MAX_PER_ACCOUNT_ADDRESS'),
    LOGIN_MAX_PER_IP: limit('LOGIN_MAX_PER_IP'),
    LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    /** Reset-code requests per (account, address) and per address; never per account alone. */
    FORGOT_MAX_PER_ACCOUNT_ADDRESS: limit('FORGOT_MAX_PER_ACCOUNT_ADDRESS'),
    FORGOT_MAX_PER_IP: limit('FORGOT_MAX_PER_IP'),
    FORGOT_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    /** reset-password calls per address per FORGOT_WINDOW_SECONDS. */
    RESET_MAX_PER_IP: limit('RESET_MAX_PER_IP'),
    /** Sign-ups per address per REGISTER_WINDOW_SECONDS. */
    REGISTER_MAX_PER_IP: limit('REGISTER_MAX_PER_IP'),
    REGISTER_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    /**
     * bcrypt hashes and compares running at once in this process; the rest wait their turn, so
     * password work never takes every libuv thread (4 by default) from file and DNS work.
     */
    BCRYPT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /**
     * Seconds a rotated refresh token still answers the same new pair (two tabs refreshing at
     * once); a use after that is treated as theft and ends the sign-in. 0 turns the grace off.
     */
    REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(120).default(30),
    /** `test` keeps payment intents in our database and takes Stripe's test cards. */
    PAYMENT_PROVIDER: z.enum(['test', 'stripe']).default('test'),
    /**
     * Production with the test provider (a staging site): refused unless this is true, and then
     * announced in the log and in /health (packages/contracts/src/dev-conveniences.ts).
     */
    [ALLOW_TEST_PAYMENTS_SETTING]: bool.default(false),
    /**
     * The server-wide debug setting (README, Configuration): every user sees the debug prompt panel
     * and may send a custom prompt, as users with `is_debug` do. A development convenience.
     */
    DEBUG_PROMPTS: bool.default(false),
    /**
     * The test payment provider's clock (POST /api/v1/payments/test/advance-clock): brings a
     * subscription's period end to now and runs the renewal. On by default outside production;
     * a development convenience, so production refuses it.
     */
    TEST_CLOCK: bool.optional(),
    /**
     * With the test payment provider, a confirm call pays an intent no card step paid with
     * Stripe's success test card, as the spec's simulated card form does, so a client written
     * from the spec can buy in one call. On by default outside production; a development
     * convenience, so production refuses it (even a staging site allowed test payments).
     */
    CONFIRM_PAYS_WITH_TEST_CARD: bool.optional(),
    STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
    /** Only for pointing the SDK at a Stripe-compatible server in tests. */
    STRIPE_API_BASE: z.url().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    /** The public key Stripe.js loads the card form with; the web app reads it from the API. */
    STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
    WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().positive().default(300),
    /** Where photos and images are kept. */
    ...STORAGE_SETTINGS,
    /** Where multer writes incoming files while they are checked; emptied after each request. */
    UPLOAD_TMP_DIR: z.string().default(path.join(tmpdir(), 'studioshot-uploads')),
    /**
     * Web app origins, besides the API's own, whose pages may open /ws (comma-separated). Unset
     * outside production: the Vite dev and preview servers, which proxy /ws to the API.
     */
    WEB_ORIGINS: z
      .string()
      .optional()
      .transform((list) => list?.split(',').map((origin) => origin.trim()))
      .pipe(z.array(z.url({ protocol: /^https?$/ })).optional()),
    /**
     * The engine that trains new models, recorded as each model's model_type; the model's later
     * generations run on the same kind's queues.
     */
    ENGINE_KIND: z.enum(ENGINE_KINDS).default('studio'),
    /** Runs of a training job before it fails for good (a worker dying mid-run counts). */
    TRAINING_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /**
     * How long a Generate call waits for its images before answering 202 with the generation's
     * id and status (the page then follows it over /ws). 0 answers at once. Production's value
     * answers inside the spec client's 10 s timeout; longer is for tests that play the worker.
     */
    GENERATION_WAIT_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(10 * 60_000)
      .default(PRODUCTION_GENERATION_WAIT_MS),
    /**
     * How long completing an upload session waits for its photos' checks before answering 409
     * with Retry-After: at most 9 s, inside the spec client's 10 s timeout.
     */
    UPLOAD_CHECKS_WAIT_MS: z.coerce.number().int().min(0).max(9_000).default(8_000),
    /**
     * On SIGTERM, how long the API keeps serving with /health failing before it stops taking
     * connections: the time a load balancer needs to see the failed readiness check and send new
     * requests elsewhere. What was asked before is answered either way.
     */
    SHUTDOWN_READINESS_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /** Runs of a generation job before it fails for good. */
    GENERATION_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /**
     * A task still waiting after this long while no worker of its engine kind is connected fails,
     * saying why (a training gives its slot back).
     */
    TASK_NO_WORKER_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60_000),
    /**
     * The engine kinds whose workers scale to zero when idle (a fleet's GPU pool), each with the
     * seconds its first worker takes to start and take work: `flux=60`. With no worker connected,
     * their wait estimates include that start instead of saying nothing, and the no-worker sweep
     * above must wait longer than it. Empty (the default): every kind keeps a worker running.
     */
    ENGINE_COLD_START_SECONDS: z
      .string()
      .default('')
      .transform(parseColdStarts)
      .pipe(z.partialRecord(z.enum(ENGINE_KINDS), z.number().int().positive())),
    /** What one GPU hour costs us, in dollars: prices the cost projection. */
    GPU_HOURLY_RATE: z.coerce.number().positive().default(2.49),
    /** A month of one always-on GPU, in dollars: what the queue's cost projection saves against. */
    ALWAYS_ON_MONTHLY_COST: z.coerce.number().positive().default(ALWAYS_ON_COST),
    /**
     * Training photos are deleted this many days after their training finishes (the privacy page
     * and the upload page say so); the retention purge does it. At most a year: a promise to
     * delete that never comes due is none.
     */
    PHOTO_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /**
     * The rating (out of 5) and the count of professionals the public pages quote, and where both
     * come from. Unset in production: the pages quote no rating and no count. A figure needs its
     * source. Outside production, with none of the three set, the spec's sample figures show,
     * labelled as a development default (socialProof).
     */
    SOCIAL_PROOF_RATING: z.coerce.number().positive().max(5).optional(),
    SOCIAL_PROOF_RATING_COUNT: z.coerce.number().int().positive().optional(),
    SOCIAL_PROOF_SOURCE: z.string().trim().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const name of [
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'STRIPE_PUBLISHABLE_KEY',
      ] as const) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when PAYMENT_PROVIDER=stripe',
          });
      }
      // A test card form in front of live charges (or the reverse) fails every payment.
      const keyMode = (key: string | undefined) => /^[a-z]+_(live|test)_/.exec(key ?? '')?.[1];
      const secretMode = keyMode(env.STRIPE_SECRET_KEY);
      const publishableMode = keyMode(env.STRIPE_PUBLISHABLE_KEY);
      if (secretMode && publishableMode && secretMode !== publishableMode)
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_PUBLISHABLE_KEY'],
          message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key`,
        });
    }
    const figureSet =
      env.SOCIAL_PROOF_RATING !== undefined || env.SOCIAL_PROOF_RATING_COUNT !== undefined;
    if (figureSet && !env.SOCIAL_PROOF_SOURCE)
      ctx.addIssue({
        code: 'custom',
        path: ['SOCIAL_PROOF_SOURCE'],
        message:
          'is required with SOCIAL_PROOF_RATING or SOCIAL_PROOF_RATING_COUNT: a figure names its source',
      });
    if (!figureSet && env.SOCIAL_PROOF_SOURCE)
      ctx.addIssue({
        code: 'custom',
        path: ['SOCIAL_PROOF_SOURCE'],
        message:
          'names the source of SOCIAL_PROOF_RATING or SOCIAL_PROOF_RATING_COUNT, and neither is set',
      });
    const metricsPort = env.METRICS_PORT ?? defaultMetricsPort(env.NODE_ENV);
    if (metricsPort !== 0 && metricsPort === env.PORT) {
      // The private port must never be the public one.
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: `must differ from PORT (${env.PORT}): metrics are never served publicly`,
      });
    }
    if (env.MAIL_TRANSPORT === 'smtp' && !env.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required when MAIL_TRANSPORT=smtp',
      });
    }
    // A kind at zero must be given the time to start a worker before its tasks fail unserved.
    for (const [kind, seconds] of Object.entries(env.ENGINE_COLD_START_SECONDS)) {
      if (seconds * 1000 >= env.TASK_NO_WORKER_TIMEOUT_MS)
        ctx.addIssue({
          code: 'custom',
          path: ['TASK_NO_WORKER_TIMEOUT_MS'],
          message: `must be longer than ${kind}'s cold start (ENGINE_COLD_START_SECONDS: ${seconds} s)`,
        });
    }
    if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when STORAGE_DRIVER=s3',
      });
    }
  });

export type Env = z.infer<typeof ZEnvSchema>;

/** The Vite dev and preview servers (apps/web/vite.config.ts), which proxy /ws to the API. */
const DEV_WEB_ORIGINS = ['http://localhost:5173', 'http://localhost:4173'];

/** Origins allowed to open /ws besides the API's own: WEB_ORIGINS, PUBLIC_URL, dev servers. */
export function webOrigins(env: Env): string[] {
  const listed = env.WEB_ORIGINS ?? (env.NODE_ENV === 'production' ? [] : DEV_WEB_ORIGINS);
  const origins = listed.map((origin) => new URL(origin).origin);
  if (env.PUBLIC_URL) origins.push(new URL(env.PUBLIC_URL).origin);
  return origins;
}

/**
 * The figures a server outside production quotes when none are set: the product spec's sample
 * rating, so development pages show the layout with a rating. Never used in production.
 */
export const DEVELOPMENT_SOCIAL_PROOF: SocialProof = {
  rating: 4.9,
  rating_count: 2847,
  source: 'Sample figures (development default, not a real rating)',
  development_default: true,
};

/** The rating and count the public pages may quote: the settings, or nothing (production). */
export function socialProof(env: Env): SocialProof {
  const rating = env.SOCIAL_PROOF_RATING ?? null;
  const ratingCount = env.SOCIAL_PROOF_RATING_COUNT ?? null;
  if (rating === null && ratingCount === null)
    return env.NODE_ENV === 'production'
      ? { rating: null, rating_count: null, source: null, development_default: false }
      : DEVELOPMENT_SOCIAL_PROOF;
  return {
    rating,
    rating_count: ratingCount,
    source: env.SOCIAL_PROOF_SOURCE ?? null,
    development_default: false,
  };
}

/** The metrics port production listens on unless told otherwise (outside production: any free one). */
export const PRODUCTION_METRICS_PORT = 9464;
function defaultMetricsPort(nodeEnv: string): number {
  return nodeEnv === 'production' ? PRODUCTION_METRICS_PORT : 0;
}

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses the environment or throws one message naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "not set", as in most shells' `VAR=` idiom.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = ZEnvSchema.safeParse(cleaned);
  if (result.success) {
    result.data.METRICS_PORT ??= defaultMetricsPort(result.data.NODE_ENV);
    result.data.TEST_CLOCK ??= result.data.NODE_ENV !== 'production';
    result.data.CONFIRM_PAYS_WITH_TEST_CARD ??= result.data.NODE_ENV !== 'production';
    // Production never runs with a development convenience it has not been told to allow.
    const refusal =
      result.data.NODE_ENV === 'production' ? productionRefusal('api', result.data) : undefined;
    if (refusal) throw new EnvError(refusal);
    return result.data;
  }
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const missing = cleaned[name] === undefined && issue.code === 'invalid_type';
    return `  ${name}: ${missing ? 'is required but not set' : issue.message}`;
  });
  throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Conveniences this production deployment keeps on by an explicit setting, for log and /health. */
export function productionWarnings(env: Env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  return allowedInProduction('api', env).map(
    (c) => `${c.setting} is on (${c.allowedBy}=true): ${c.why}`,
  );
}
