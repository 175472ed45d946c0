import type { Request, Response } from 'express';
import helmet from 'helmet';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** The app setting under which buildApp leaves its security headers (the HTTP server answers with them too). */
export const SECURITY_HEADERS = 'security headers';

/** The browser security headers of each kind of answer, worked out once at start. */
export interface SecurityHeaders {
  /** The service's own pages: helmet's whole set with a CSP that allows nothing inline. */
  html: HeaderList;
  /** Swagger UI's and ReDoc's pages, whose bundles write inline styles: as `html`, with inline style allowed. */
  docs: HeaderList;
  /** JSON, problem+json, scripts, stylesheets and images: what no page of the service is. */
  other: HeaderList;
}

/** The pages whose third-party bundles set inline styles (React and styled-components do). */
const DOCS_PAGES = new Set(['getSwaggerUi', 'getRedoc']);

const helmetOptions = (styleSources: string[]) => ({
  contentSecurityPolicy: {
    directives: {
      // Nothing from another origin: helmet's default would allow style sheets from any HTTPS host.
      'style-src': styleSources,
      'font-src': ["'self'", 'data:'],
      // ReDoc renders its search index in a worker it builds from a blob.
      'worker-src': ["'self'", 'blob:'],
      // No page of the service is meant to be shown inside another one.
      'frame-ancestors': ["'none'"],
      // TLS is the proxy's business; on plain HTTP this directive would break the docs pages.
      'upgrade-insecure-requests': null,
    },
  },
  xFrameOptions: { action: 'deny' as const },
});

/**
 * What an answer that is not a page carries (OWASP's REST Security Cheat Sheet): should a browser
 * be led to open one as a document anyway, it may load nothing and be framed by nobody.
 * `X-Frame-Options` is for browsers that predate `frame-ancestors`.
 */
const NOT_A_PAGE: HeaderList = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Frame-Options', 'DENY'],
];

/**
 * helmet's headers are the same for every response, so they are read off it once. An answer that
 * is not a page gets `nosniff`, the two framing and loading policies above, and HSTS in production,
 * where it is served over HTTPS; helmet's other headers govern documents a browser renders.
 */
export function securityHeaders(production: boolean): SecurityHeaders {
  const html = helmetHeaders(["'self'"]);
  const hsts = html.find(([name]) => name.toLowerCase() === 'strict-transport-security');
  const nosniff = html.find(([name]) => name.toLowerCase() === 'x-content-type-options');
  if (!hsts || !nosniff) throw new Error('helmet no longer sets Strict-Transport-Security and X-Content-Type-Options');
  return { html, docs: helmetHeaders(["'self'", "'unsafe-inline'"]), other: production ? [nosniff, ...NOT_A_PAGE, hsts] : [nosniff, ...NOT_A_PAGE] };
}

/** The headers of an operation's answer: a page's (its own or a docs page's) or any other's. */
export function headersOf(headers: SecurityHeaders, operation: { html: boolean; operationId: string }): HeaderList {
  if (!operation.html) return headers.other;
  return DOCS_PAGES.has(operation.operationId) ? headers.docs : headers.html;
}

function helmetHeaders(styleSources: string[]): HeaderList {
  const recorded: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => recorded.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(helmetOptions(styleSources))({} as Request, recorder as unknown as Response, () => undefined);
  return recorded;
}

export function setHeaders(res: Response, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}
