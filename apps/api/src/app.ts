import compression from 'compression';
import { ADMIN_QUEUES_PATH } from '@studioshot/contracts';
import express, { Router, type Express, type RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Container } from './container.js';
import { webOrigins } from './env.js';
import { RouteTable, type ResponseCheck } from './http/declare.js';
import { imageSender } from './http/send-image.js';
import { inOneLayer } from './http/one-layer.js';
import { freshProfileAfterWrites } from './middleware/fresh-profile.js';
import { requireAdmin, requireAdminConsoleSession } from './middleware/admin.js';
import { requireAuth } from './middleware/auth.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { methodNotAllowed } from './middleware/method-not-allowed.js';
import { securityHeaders } from './middleware/security-headers.js';
import { requestLog } from './middleware/request-log.js';
import { refuseNulCharacters } from './middleware/text.js';
import { requestMetrics } from './middleware/request-metrics.js';
import { accountRoutes } from './routes/account.routes.js';
import { adminRoutes } from './routes/admin.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { deletionRoutes } from './routes/deletion.routes.js';
import { docsRoutes } from './routes/docs.routes.js';
import { generationRoutes } from './routes/generation.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { paymentsRoutes, paymentsWebhookRoute } from './money/payments.routes.js';
import { renewalsTestRoutes } from './money/renewals.routes.js';
import { queueConsole } from './routes/queue-console.js';
import { queueRoutes } from './routes/queue.routes.js';
import { trainingRoutes } from './routes/training.routes.js';
import { uploadRoutes } from './routes/upload.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { wsRoutes } from './routes/ws.routes.js';
import { pipeline } from 'node:stream/promises';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import { socialProof } from './env.js';

/**
 * Paths the server answers itself; everything else under GET is the web app. The metrics port's
 * paths are listed so the public port answers them 404, never the web app's page.
 */
const SERVER_PATHS =
  /^\/(api|health|ws|models|inference|generation|images|metrics|queue-load)(\/|$)/;

export function createApp(c: Container): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag on every answer: API answers are per account and read fresh, so hashing each body
  // bought nothing (3% of a profile read's CPU). The one cacheable answer, the public wait
  // estimate, sets its own (queue.routes.ts).
  app.set('etag', false);
  app.set('trust proxy', c.env.TRUST_PROXY);
  const auth = requireAuth(c.accessCheck);
  const routes = new RouteTable({
    requireAuth: auth,
    checkResponses: c.env.NODE_ENV === 'test' ? failOnMismatch : undefined,
  });
  // What every request passes through, as one layer (http/one-layer.ts), in this order: its
  // timing, its id and log line, the security headers, the profile cache's refresh after writes.
  app.use(
    inOneLayer([
      ...(c.env.HTTP_METRICS ? [requestMetrics(c.metrics.httpDuration)] : []),
      requestLog(c.logger, { quietPaths: ['/health', '/health/live'] }),
      securityHeaders(c.env.PAYMENT_PROVIDER, c.storage.downloadOrigin),
      freshProfileAfterWrites(c.userCache),
    ]),
  );
  // Every route is declared once (http/declare.ts) and served by the app itself, with no
  // nested router to walk; the document says the same routes. The webhook reads its raw body:
  // it comes before the JSON parser.
  paymentsWebhookRoute(routes.router(app), c.stripeIntake);
  app.use(
    inOneLayer([jsonBodies(express.json({ limit: '64kb', strict: true })), refuseNulCharacters]),
  );

  const api = routes.router(app);
  healthRoutes(api, c.health);
  docsRoutes(api, () => document);
  wsRoutes(api);
  authRoutes(api, c.auth);
  usersRoutes(api, c.users);
  accountRoutes(api, {
    settings: c.accountSettings,
    exports: c.exports,
    photoRetentionDays: c.env.PHOTO_RETENTION_DAYS,
    signInDays: c.env.REFRESH_TOKEN_TTL_DAYS,
    socialProof: socialProof(c.env),
    sendStored: async (key, res) => {
      await pipeline(await c.storage.get(key), res);
    },
  });
  uploadRoutes(api, {
    uploads: c.uploads,
    photoSets: c.photoSets,
    tmpDir: c.env.UPLOAD_TMP_DIR,
    sendStored: async (key, res) => {
      await pipeline(await c.storage.get(key), res);
    },
  });
  trainingRoutes(api, c.training);
  deletionRoutes(api, c.deletions);
  queueRoutes(api, c.queue);
  generationRoutes(api, { generation: c.generation, sendImage: imageSender(c.storage) });
  paymentsRoutes(api, {
    checkout: c.checkout,
    fulfilment: c.fulfilment,
    subscriptions: c.subscriptions,
    billing: c.billing,
    refunds: c.refunds,
    testProvider: c.testPaymentProvider,
  });
  renewalsTestRoutes(api, {
    testProvider: c.testPaymentProvider,
    renewals: c.renewals,
    subscriptions: c.subscriptions,
    testClock: c.env.TEST_CLOCK === true,
  });
  adminRoutes(api, {
    requireAdmin: requireAdmin(c.accessCheck, c.adminAccess),
    admins: c.adminAccess,
    fleet: c.fleet,
  });

  // The queue console, for admins with a console session; 404 to everyone else.
  const consoleRouter = Router();
  consoleRouter.use(requireAdminConsoleSession(c.adminAccess, webOrigins(c.env)));
  consoleRouter.use(queueConsole(c.consoleQueues.queues));
  app.use(ADMIN_QUEUES_PATH, consoleRouter);

  const webDist = c.env.WEB_DIST;
  if (webDist && existsSync(path.join(webDist, 'index.html'))) {
    // Only the web app's files are worth compressing; API answers are small JSON.
    app.use(compression());
    // Hashed assets never change; index.html must always be revalidated.
    app.use(
      '/assets',
      express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '1y' }),
    );
    app.use(express.static(webDist, { index: false, maxAge: 0 }));
    app.get(/.*/, (req, res, next) => {
      if (SERVER_PATHS.test(req.path)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(webDist, 'index.html'));
    });
  }

  app.use(routes.checkErrors());
  const document: OpenApiDocument = buildOpenApiDocument(
    routes.routes.filter((route) => route.published !== false),
    c.env.APP_VERSION,
  );
  // A path the API serves, asked with a method it does not take there: 405 with Allow.
  app.use(methodNotAllowed(document.paths));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/** Tests: an answer its declaration does not describe is a bug, reported as one (a 500). */
const failOnMismatch: ResponseCheck = (route, status, problem) => {
  const message = `${route.method.toUpperCase()} ${route.path} answered ${status} unlike its declaration: ${problem}`;
  console.error(message);
  throw new Error(message);
};

/**
 * The JSON body parser, asked only where a body may come: a GET or HEAD has none to read, and
 * the parser's checks that it has none cost a read 2% of its CPU.
 */
function jsonBodies(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') next();
    else parser(req, res, next);
  };
}
