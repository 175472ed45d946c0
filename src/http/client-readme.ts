import path from 'node:path';
import { Marked, type Token } from 'marked';
import { escapeHtml } from './escape-html';
import { loadBrowserAssets } from './browser-assets';
import { pageLinksOf, type PageLinks } from './page-links';
import { pathToOf } from './operations';
import { shippedRouteTable } from '../contract/route-table';

/** The typed client's README, which `GET /client` renders (api.yaml's `externalDocs` points there). */
export const CLIENT_README = path.resolve(__dirname, '..', '..', 'src', 'client', 'README.md');

/**
 * Links and images may go to the web, to an address or to this service; `javascript:`, `data:` and
 * anything else become `#`. A relative reference must not hold `:` or `&` before its first `/`, `?`
 * or `#`: marked leaves character references in an href as written (`&#106;avascript:` or
 * `javascript&colon;`), and the browser would decode them into a scheme.
 */
const SAFE_URL = /^(?:https?:\/\/|mailto:|[/#?]|\.\.?\/|[^:/?#&]*(?:[/?#]|$))/i;
const safeUrl = (href: string): string => (SAFE_URL.test(href.trim()) ? href : '#');

/**
 * The README is ours, but the page must hold no script it did not mean to, whatever the Markdown
 * says: raw HTML in it is shown as text (a `<script src="/docs/...">` would pass the CSP's
 * `script-src 'self'`), and link and image targets are kept to safe schemes.
 */
const markdown = new Marked({
  gfm: true,
  async: false,
  walkTokens(token: Token) {
    if (token.type === 'html') token.text = escapeHtml(token.text);
    else if (token.type === 'link' || token.type === 'image') token.href = safeUrl(token.href);
  },
});

/** Markdown to the body of a page: no raw HTML, no script. */
export function renderMarkdown(source: string): string {
  return markdown.parse(source) as string;
}

/**
 * The whole page: the rendered README under a bar that leads back to the references. Like the
 * other pages, no inline script or style: it passes the service's Content-Security-Policy.
 */
export function renderClientPage(source: string, links: PageLinks = documentLinks()): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>@agent-fleet/client · agent fleet API</title>
    <link rel="icon" type="image/svg+xml" href="${escapeHtml(links.asset('favicon.svg'))}">
    <link rel="stylesheet" href="${escapeHtml(links.asset('client.css'))}">
  </head>
  <body>
    <nav aria-label="API reference">
      <a href="${escapeHtml(links.swaggerUi)}">Interactive reference (Swagger UI)</a>
      <a href="${escapeHtml(links.redoc)}">Reference (ReDoc)</a>
      <a href="${escapeHtml(links.apiDocument)}">OpenAPI document</a>
    </nav>
    <main>
${renderMarkdown(source)}
    </main>
  </body>
</html>
`;
}

/** The links of the shipped api.yaml, for a page rendered without an app (the service passes its own). */
function documentLinks(): PageLinks {
  return pageLinksOf(pathToOf(shippedRouteTable()), loadBrowserAssets());
}
