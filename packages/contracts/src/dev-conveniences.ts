/**
 * Every development convenience, in one list: things that make local work and tests easy and
 * would be holes in production (reset codes in answers, free money, looser limits). The API and
 * the worker refuse to start with NODE_ENV=production while any that applies to them is on, and
 * name it. A feature that adds a convenience adds one entry here; a test walks the list.
 */
export type ConvenienceApp = 'api' | 'worker';

/** Settings as a process reads them (defaults applied where the app has one). */
export type Settings = Readonly<Record<string, unknown>>;

export interface DevConvenience {
  /** The setting that turns it on, as an operator would search for it. */
  setting: string;
  /** What it does, and what to set instead in production. */
  why: string;
  apps: readonly ConvenienceApp[];
  isOn(settings: Settings): boolean;
  /**
   * A loudly named setting that lets a production deployment keep it on anyway (a staging site
   * taking test cards); the process then says so in its log and in /health.
   */
  allowedBy?: string;
}

/**
 * The limits production runs with on the anonymous auth calls (README: configuration). Raising
 * any of them is a development convenience. LOGIN_MAX_PER_ACCOUNT is the soft limit: failures
 * from devices without a device cookie, across all addresses, after which such devices wait a
 * growing time; a known device with the right password is never refused by it.
 */
export const PRODUCTION_RATE_LIMITS = {
  LOGIN_MAX_PER_ACCOUNT: 10,
  LOGIN_MAX_PER_ACCOUNT_ADDRESS: 10,
  LOGIN_MAX_PER_IP: 50,
  FORGOT_MAX_PER_ACCOUNT_ADDRESS: 5,
  FORGOT_MAX_PER_IP: 20,
  RESET_MAX_PER_IP: 20,
  REGISTER_MAX_PER_IP: 20,
} as const;

/**
 * The longest a Generate call waits for its images before answering 202 with the generation's
 * id: under the spec client's 10 s timeout, so a client never times out and retries into a
 * second generation. Longer waits are a test convenience.
 */
export const PRODUCTION_GENERATION_WAIT_MS = 8_000;

export const ALLOW_TEST_PAYMENTS_SETTING = 'ALLOW_TEST_PAYMENTS_IN_PRODUCTION';

const isTrue = (value: unknown) => value === true || value === 'true' || value === '1';

export const DEV_CONVENIENCES: readonly DevConvenience[] = [
  {
    setting: 'MAIL_TRANSPORT=outbox',
    why: "keeps mail in the database and returns password reset codes in API answers, so anyone could reset anyone's password; set MAIL_TRANSPORT=smtp and SMTP_URL",
    apps: ['api'],
    isOn: (s) => (s.MAIL_TRANSPORT ?? 'outbox') === 'outbox',
  },
  {
    setting: 'PAYMENT_PROVIDER=test',
    why: 'the test payment provider and its card step accept the public test card 4242 for any plan or credits; set PAYMENT_PROVIDER=stripe',
    apps: ['api'],
    isOn: (s) => (s.PAYMENT_PROVIDER ?? 'test') === 'test',
    allowedBy: ALLOW_TEST_PAYMENTS_SETTING,
  },
  {
    setting: 'HTTP_METRICS=false',
    why: 'stops timing requests for /metrics, which only the metrics bench needs; leave HTTP_METRICS unset',
    apps: ['api'],
    isOn: (s) => s.HTTP_METRICS === false || s.HTTP_METRICS === 'false' || s.HTTP_METRICS === '0',
  },
  {
    setting: 'DEBUG_PROMPTS=true',
    why: "shows every user the debug prompt panel and takes anyone's custom prompt (a premium annual feature); unset it and set is_debug on the accounts that need it",
    apps: ['api'],
    isOn: (s) => isTrue(s.DEBUG_PROMPTS),
  },
  {
    setting: 'TEST_CLOCK=true',
    why: "lets any signed-in user move their subscription's billing dates and run its renewal at once; unset it (production's default is off)",
    apps: ['api'],
    isOn: (s) => isTrue(s.TEST_CLOCK),
  },
  {
    setting: 'CONFIRM_PAYS_WITH_TEST_CARD=true',
    why: "lets a payment confirm call pay an unpaid test intent with the success test card, so nobody enters a card; unset it (production's default is off)",
    apps: ['api'],
    isOn: (s) => isTrue(s.CONFIRM_PAYS_WITH_TEST_CARD),
  },
  {
    setting: 'STRIPE_API_BASE',
    why: 'points the Stripe SDK at another server (a test stand-in); unset it',
    apps: ['api'],
    isOn: (s) => typeof s.STRIPE_API_BASE === 'string' && s.STRIPE_API_BASE !== '',
  },
  {
    setting: 'ENGINE_FLAG_IMAGES',
    why: "makes the studio engine's quality check fail the listed images of every set, so sets come back short and free; unset it",
    apps: ['worker'],
    isOn: (s) => typeof s.ENGINE_FLAG_IMAGES === 'string' && s.ENGINE_FLAG_IMAGES.trim() !== '',
  },
  {
    setting: 'ENGINE_ANSWER_AFTER_MS',
    why: 'makes the engine answer every training and generation after a fixed sleep with stand-in files instead of a model and headshots (the fleet simulation runs on it); unset it',
    apps: ['worker'],
    isOn: (s) =>
      typeof s.ENGINE_ANSWER_AFTER_MS === 'string' && s.ENGINE_ANSWER_AFTER_MS.trim() !== '',
  },
  {
    setting: `GENERATION_WAIT_MS above ${PRODUCTION_GENERATION_WAIT_MS}`,
    why: "a Generate call would outlast the spec client's 10 s timeout, which then gives up on an answer the server still sends; unset it",
    apps: ['api'],
    isOn: (s) =>
      s.GENERATION_WAIT_MS !== undefined &&
      Number(s.GENERATION_WAIT_MS) > PRODUCTION_GENERATION_WAIT_MS,
  },
  ...Object.entries(PRODUCTION_RATE_LIMITS).map(([name, limit]): DevConvenience => ({
    setting: `${name} above ${limit}`,
    why: `raises a sign-in, sign-up or password-reset limit above production's ${limit}; unset it`,
    apps: ['api'],
    isOn: (s) => s[name] !== undefined && Number(s[name]) > limit,
  })),
];

/** The conveniences on for `app` that production refuses (those explicitly allowed aside). */
export function refusedInProduction(app: ConvenienceApp, settings: Settings): DevConvenience[] {
  return DEV_CONVENIENCES.filter(
    (c) =>
      c.apps.includes(app) &&
      c.isOn(settings) &&
      !(c.allowedBy !== undefined && isTrue(settings[c.allowedBy])),
  );
}

/** The conveniences on for `app` that an explicit setting allows (to be said out loud). */
export function allowedInProduction(app: ConvenienceApp, settings: Settings): DevConvenience[] {
  return DEV_CONVENIENCES.filter(
    (c) =>
      c.apps.includes(app) &&
      c.isOn(settings) &&
      c.allowedBy !== undefined &&
      isTrue(settings[c.allowedBy]),
  );
}

/** One message naming every refused convenience, or undefined when there is none. */
export function productionRefusal(app: ConvenienceApp, settings: Settings): string | undefined {
  const refused = refusedInProduction(app, settings);
  if (refused.length === 0) return undefined;
  return [
    `Refusing to start with NODE_ENV=production and development conveniences on:`,
    ...refused.map((c) => `  ${c.setting}: ${c.why}`),
  ].join('\n');
}
