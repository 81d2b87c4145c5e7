import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from '../openapi.js';

export function docsRoutes(version: string): Router {
  const router = Router();
  const document = buildOpenApiDocument(version);
  router.get('/api/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(
    '/api/docs',
    swaggerUi.serve,
    swaggerUi.setup(document, { customSiteTitle: 'Studioshot API' }),
  );
  return router;
}
