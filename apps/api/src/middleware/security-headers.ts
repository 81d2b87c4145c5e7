import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The origins Stripe's security guide asks a Content-Security-Policy to allow for Stripe.js and
 * Elements: the script and its frames on js.stripe.com (and its subdomains), redirects such as
 * 3-D Secure through hooks.stripe.com, the API it calls, and the address autocomplete it may load.
 * Frames that Stripe's own frames open (its fraud signals on m.stripe.network) are governed by
 * those frames' policy, not ours.
 */
export const STRIPE_CSP_SOURCES = {
  'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://maps.googleapis.com'],
  'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ['https://api.stripe.com', 'https://maps.googleapis.com'],
} as const;

/** Directive name -> sources; null turns off one of helmet's default directives. */
type Directives = Record<string, string[] | null>;

/**
 * Our directives on top of helmet's defaults; Stripe's origins only when Stripe takes the cards;
 * the storage's download origin (S3: images are redirected to the bucket) for showing images and
 * for the download, which fetches them. A bucket on plain http (an S3-compatible server without
 * TLS) turns off the upgrade of insecure requests: the browser would follow the redirect over
 * https, where that server does not answer.
 */
export function contentSecurityDirectives(
  paymentProvider: 'test' | 'stripe',
  downloadOrigin?: string,
): Directives {
  const storage = downloadOrigin ? [downloadOrigin] : [];
  const directives: Directives = {
    'img-src': ["'self'", 'data:', 'blob:', ...storage],
    'connect-src': ["'self'", ...storage],
  };
  if (downloadOrigin?.startsWith('http:')) directives['upgrade-insecure-requests'] = null;
  if (paymentProvider === 'stripe') {
    // Each of these is 'self' otherwise (helmet's script-src, our connect-src, and default-src
    // for frames): Stripe's origins are added to it.
    for (const [name, sources] of Object.entries(STRIPE_CSP_SOURCES)) {
      directives[name] = [...(directives[name] ?? ["'self'"]), ...sources];
    }
  }
  return directives;
}

/**
 * helmet's headers, with the Content-Security-Policy for the payment provider in use. They are the
 * same for every request, so helmet runs once, here, and each request gets its headers from a
 * list: helmet's chain of a dozen middlewares per request was a measurable share of a small read.
 */
export function securityHeaders(
  paymentProvider: 'test' | 'stripe',
  downloadOrigin?: string,
): RequestHandler {
  const headers = helmetHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: contentSecurityDirectives(paymentProvider, downloadOrigin),
      },
    }),
  );
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The headers a header-only middleware sets, read by running it once on a recording answer. */
function helmetHeaders(middleware: RequestHandler): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.set(name, String(value));
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  let passed = false;
  void middleware(
    {} as never,
    recorder as never,
    ((error?: unknown) => {
      if (error) throw error;
      passed = true;
    }) as never,
  );
  // helmet sets headers and calls next synchronously; anything else would be a new helmet.
  if (!passed) throw new Error('helmet did not finish synchronously');
  return [...headers];
}
