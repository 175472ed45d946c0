import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { CLIENT_README, renderClientPage } from './client-readme';
import { serveFixedFiles } from './static-files';

const REDOC_STANDALONE = require.resolve('redoc/bundles/redoc.standalone.js');
const SWAGGER_UI_DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));

// ReDoc 2 always shows its "API docs by Redocly" credit with a logo from Redocly's CDN (no option
// turns it off): the CSP blocks it and the browser reports a violation. The credit keeps its text and
// link; its logo becomes a transparent inline image.
const REDOCLY_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const TRANSPARENT_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** ReDoc's standalone bundle, with nothing in it that loads from a CDN (also used by `npm run docs:build`). */
export const readRedocStandalone = (): string => readFileSync(REDOC_STANDALONE, 'utf8').replace(REDOCLY_CDN_LOGO, TRANSPARENT_PIXEL);

const SWAGGER_UI_OPTIONS = {
  persistAuthorization: false,
  tryItOutEnabled: false,
  // Otherwise, on any host but localhost, Swagger UI shows a badge image from validator.swagger.io:
  // a third-party request (carrying this document's URL) that the CSP blocks.
  validatorUrl: null,
};

/**
 * Swagger UI's start script: swagger-ui-express's, with the options above. The document's URL is
 * absolute, built from the page's own address: Swagger UI resolves the document's relative URLs
 * (the root `externalDocs`, `/client`) against it, and silently drops them when it is relative.
 */
const SWAGGER_UI_INIT = `window.onload = function () {
  window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(SWAGGER_UI_OPTIONS)}, {
    url: new URL('/openapi.json', window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  }));
};
`;

// No inline script: the page passes the service's own Content-Security-Policy.
const REDOC_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>agent fleet API reference</title>
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/** The files /docs/{file} serves (api.yaml lists them): swagger-ui-dist's demo page and source maps are not among them. */
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css', 'favicon-16x16.png', 'favicon-32x32.png'];

/**
 * /openapi.json, /docs (Swagger UI) and /redoc, all from installed packages: no CDN; and /client,
 * the typed client's README (`clientReadme`, a Markdown file), rendered once here.
 */
export function createDocsRouter(apiDocument: object, options: { clientReadme?: string } = {}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const documentJson = JSON.stringify(apiDocument);
  const clientPage = renderClientPage(readFileSync(options.clientReadme ?? CLIENT_README, 'utf8'));
  const redocScript = readRedocStandalone();
  // Swagger UI's page names its files relative to `/docs/`; served at `/docs` itself, they move under docs/.
  const swaggerPage = swaggerUi
    .generateHTML(undefined, { customSiteTitle: 'agent fleet API', swaggerOptions: SWAGGER_UI_OPTIONS })
    .replace(/(href|src)="\.\//g, '$1="docs/');
  const swaggerFiles = serveFixedFiles(Object.fromEntries(SWAGGER_UI_FILES.map((name) => [name, path.join(SWAGGER_UI_DIST, name)])));

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(documentJson);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(swaggerPage);
  });
  router.get('/docs/swagger-ui-init.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=3600').send(SWAGGER_UI_INIT);
  });
  router.get('/docs/:file', swaggerFiles);
  router.get('/redoc', (_req, res) => {
    res.type('html').send(REDOC_PAGE);
  });
  router.get('/client', (_req, res) => {
    res.type('html').send(clientPage);
  });
  router.get('/redoc/redoc.standalone.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=3600').send(redocScript);
  });
  return router;
}
