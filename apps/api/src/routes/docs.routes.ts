import { MESSAGES } from '@studioshot/contracts';
import type { Request, RequestHandler, Response } from 'express';
import swaggerUi from 'swagger-ui-express';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { DeclaringRouter } from '../http/declare.js';
import type { OpenApiDocument } from '../openapi.js';

const DOCS_PATH = '/api/docs';

/** What /api/openapi.json answers, as far as a client relies on it. */
const ZOpenApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/**
 * Runs express middleware in turn: true once one of them has answered (the answer is over),
 * false when each passed the request on.
 */
function run(handlers: RequestHandler[], req: Request, res: Response): Promise<boolean> {
  return new Promise((resolve, reject) => {
    res.once('close', () => resolve(true));
    const next = (i: number) => (error?: unknown) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      const handler = handlers[i];
      if (!handler) return resolve(false);
      void handler(req, res, next(i + 1));
    };
    next(0)();
  });
}

/**
 * The document, and the Swagger UI page that reads it. `document` is called when the app has
 * declared all its routes (the document describes them, these included).
 */
export function docsRoutes(api: DeclaringRouter, document: () => OpenApiDocument): void {
  let page: { html: RequestHandler; files: RequestHandler[] } | undefined;
  const swagger = () => {
    page ??= {
      html: swaggerUi.setup(document(), { customSiteTitle: 'Studioshot API' }),
      files: swaggerUi.serveFiles(document()),
    };
    return page;
  };

  api.route(
    {
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This document (OpenAPI 3.1)',
      tag: 'docs',
      auth: 'none',
      responses: { 200: ZOpenApiDocumentSchema },
    },
    () => document(),
  );

  api.route(
    {
      method: 'get',
      path: DOCS_PATH,
      summary: 'The API reference page (Swagger UI)',
      description: `Without the trailing slash: a redirect to ${DOCS_PATH}/, whose relative addresses the page's files resolve against.`,
      tag: 'docs',
      auth: 'none',
      responses: {
        200: { description: 'The page', contentType: 'text/html' },
        301: {
          description: `To ${DOCS_PATH}/`,
          headers: { Location: { description: `${DOCS_PATH}/`, schema: { type: 'string' } } },
        },
      },
    },
    ({ req, res }) => {
      if (!req.path.endsWith('/')) return res.redirect(301, `${DOCS_PATH}/`);
      swagger().html(req, res, () => undefined);
    },
  );

  api.route(
    {
      method: 'get',
      path: `${DOCS_PATH}/:file`,
      summary: 'A file of the reference page (its script, style sheets, images)',
      tag: 'docs',
      auth: 'none',
      params: z.object({ file: z.string().regex(/^[\w.-]+$/) }),
      notFound: { params: MESSAGES.notFound },
      responses: { 200: { description: 'The file', contentType: '*/*' } },
    },
    async ({ req, res, params }) => {
      // The swagger-ui handlers serve from their mount point: hand them the file's own path.
      const url = req.url;
      req.url = `/${params.file}`;
      try {
        if (params.file !== 'package.json' && (await run(swagger().files, req, res))) return;
      } finally {
        req.url = url;
      }
      throw new AppError('not_found', MESSAGES.notFound);
    },
  );
}
