import { readFileSync } from 'node:fs';
import path from 'node:path';
import swaggerUi from 'swagger-ui-express';
import type { Response } from 'express';
import { CLIENT_README, renderClientPage, renderMarkdown } from './client-readme';
import { escapeHtml } from './escape-html';
import type { OperationHandlers, PathTo } from './operations';
import type { PageLinks } from './page-links';
import { serveFixedFiles } from './static-files';
import type { Handler } from './typed-handler';

/** The short start both reference pages open with, above the operations. */
export const GETTING_STARTED = path.resolve(__dirname, '..', '..', 'src', 'http', 'pages', 'getting-started.md');

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
const swaggerUiInit = (documentPath: string): string => `window.onload = function () {
  window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(SWAGGER_UI_OPTIONS)}, {
    url: new URL(${JSON.stringify(documentPath)}, window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  }));
};
`;

/** The short start's style sheet (no inline style: the pages keep a CSP without it). */
const gettingStartedStyle = (links: PageLinks): string => `<link rel="stylesheet" href="${escapeHtml(links.asset('docs.css'))}">`;

/** The short start, rendered once: the first thing the reference pages show. */
function renderGettingStarted(source: string, links: PageLinks, clientReadme: string): string {
  return `<section class="getting-started" id="getting-started">
${renderMarkdown(source)}
<nav aria-label="More">
  <a href="${escapeHtml(links.swaggerUi)}">Swagger UI</a>
  <a href="${escapeHtml(links.redoc)}">ReDoc</a>
  <a href="${escapeHtml(links.apiDocument)}">OpenAPI document</a>
  <a href="${escapeHtml(clientReadme)}">Typed client (@agent-fleet/client)</a>
</nav>
</section>`;
}

// No inline script: the page passes the service's own Content-Security-Policy.
const redocPage = (links: PageLinks, start: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>agent fleet API reference</title>
    <link rel="icon" type="image/svg+xml" href="${escapeHtml(links.asset('favicon.svg'))}">
    ${gettingStartedStyle(links)}
  </head>
  <body>
${start}
    <redoc spec-url="${escapeHtml(links.apiDocument)}"></redoc>
    <script src="${escapeHtml(links.redocAsset(REDOC_SCRIPT))}"></script>
  </body>
</html>
`;

/** The files /docs/{file} serves (api.yaml lists them): swagger-ui-dist's demo page and source maps are not among them. */
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css', 'favicon-16x16.png', 'favicon-32x32.png'];

/** The file name ReDoc's page loads its bundle by (`/redoc/{file}`). */
const REDOC_SCRIPT = 'redoc.standalone.js';
/** The start script Swagger UI's page loads beside its own files (`/docs/{file}`). */
const SWAGGER_UI_INIT_SCRIPT = 'swagger-ui-init.js';

/** A value made when first asked for, then kept. */
function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The OpenAPI document, Swagger UI and ReDoc, all from installed packages: no CDN; and the typed
 * client's README (`clientReadme`, a Markdown file). The pages are rendered, and the bundles read,
 * when first asked for: a process that never serves them never holds them (ReDoc's bundle alone
 * is about 2 MB in memory).
 */
export function docsHandlers(
  apiDocument: object,
  options: { clientReadme?: string | undefined; gettingStarted?: string | undefined; pathTo: PathTo; links: PageLinks },
): Pick<OperationHandlers, 'getApiDocument' | 'getSwaggerUi' | 'getSwaggerUiAsset' | 'getRedoc' | 'getRedocAsset' | 'getClientReadme'> {
  const { links } = options;
  const documentJson = JSON.stringify(apiDocument);
  const clientPage = onFirstUse(() => renderClientPage(readFileSync(options.clientReadme ?? CLIENT_README, 'utf8'), links));
  const start = onFirstUse(() => renderGettingStarted(readFileSync(options.gettingStarted ?? GETTING_STARTED, 'utf8'), links, options.pathTo('getClientReadme')));
  const redocHtml = onFirstUse(() => redocPage(links, start()));
  const redocScript = onFirstUse(readRedocStandalone);
  const swaggerInit = swaggerUiInit(links.apiDocument);
  // Swagger UI's page names its files relative to itself (`./`): they are its `/docs/{file}` files.
  const swaggerPage = onFirstUse(() =>
    swaggerUi
      .generateHTML(undefined, { customSiteTitle: 'agent fleet API', swaggerOptions: SWAGGER_UI_OPTIONS })
      .replace(/(href|src)="\.\/([^"]+)"/g, (_whole, attribute: string, file: string) => `${attribute}="${escapeHtml(links.swaggerAsset(file))}"`)
      .replace('</head>', () => `  ${gettingStartedStyle(links)}\n</head>`)
      .replace('<div id="swagger-ui"></div>', () => `${start()}\n<div id="swagger-ui"></div>`),
  );
  const swaggerFiles = serveFixedFiles(Object.fromEntries(SWAGGER_UI_FILES.map((name) => [name, path.join(SWAGGER_UI_DIST, name)])));

  const getSwaggerUiAsset: Handler<'getSwaggerUiAsset'> = (req, res, next) => {
    if (req.params.file !== SWAGGER_UI_INIT_SCRIPT) return swaggerFiles(req, res, next);
    res.type('text/javascript').set('Cache-Control', 'public, max-age=3600').send(swaggerInit);
  };
  const getRedocAsset: Handler<'getRedocAsset'> = (req, res, next) => {
    if (req.params.file !== REDOC_SCRIPT) return next();
    res.type('text/javascript').set('Cache-Control', 'public, max-age=3600').send(redocScript());
  };
  return {
    getApiDocument: (_req, res: Response) => {
      // Serialised once, at start: sent as its text.
      res.type('application/json').set('Cache-Control', 'no-cache').send(documentJson);
    },
    getSwaggerUi: (_req, res) => {
      res.type('html').send(swaggerPage());
    },
    getSwaggerUiAsset,
    getRedoc: (_req, res) => {
      res.type('html').send(redocHtml());
    },
    getRedocAsset,
    getClientReadme: (_req, res) => {
      res.type('html').send(clientPage());
    },
  };
}
