import path from 'node:path';
import express, { Router } from 'express';
import swaggerUi from 'swagger-ui-express';

const REDOC_BUNDLE = path.dirname(require.resolve('redoc/bundles/redoc.standalone.js'));

// No inline script: the page passes the service's own Content-Security-Policy.
const REDOC_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>agent fleet API reference</title>
  </head>
  <body>
    <redoc spec-url="openapi.json"></redoc>
    <script src="redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/** /openapi.json, /docs (Swagger UI) and /redoc, all from installed packages: no CDN. */
export function createDocsRouter(apiDocument: object): Router {
  const router = Router();
  const documentJson = JSON.stringify(apiDocument);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(documentJson);
  });
  router.use(
    '/docs',
    swaggerUi.serveFiles(undefined, { swaggerOptions: { url: '/openapi.json' } }),
    swaggerUi.setup(undefined, {
      customSiteTitle: 'agent fleet API',
      swaggerOptions: { url: '/openapi.json', persistAuthorization: false, tryItOutEnabled: false },
    }),
  );
  router.get('/redoc', (_req, res) => {
    res.type('html').send(REDOC_PAGE);
  });
  router.use('/redoc', express.static(REDOC_BUNDLE, { index: false, maxAge: '1h' }));
  return router;
}
