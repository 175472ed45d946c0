import type { Request, Response } from 'express';
import helmet from 'helmet';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** The browser security headers of each kind of answer, worked out once at start. */
export interface SecurityHeaders {
  /** Pages people open: helmet's whole set, CSP included. */
  html: HeaderList;
  /** JSON, scripts, stylesheets and images: no browser renders them as a document. */
  other: HeaderList;
}

const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      // ReDoc renders its search index in a worker it builds from a blob.
      'worker-src': ["'self'", 'blob:'],
      // TLS is the proxy's business; on plain HTTP this directive would break the docs pages.
      'upgrade-insecure-requests': null,
    },
  },
};

/**
 * helmet's headers are the same for every response, so they are read off it once. A JSON answer
 * needs only `nosniff` (and HSTS in production, where it is served over HTTPS): CSP, framing and
 * cross-origin policies govern documents a browser renders, and on every JSON answer they cost
 * bytes and header serialisation for nothing.
 */
export function securityHeaders(production: boolean): SecurityHeaders {
  const html: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => html.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(HELMET_OPTIONS)({} as Request, recorder as unknown as Response, () => undefined);
  const hsts = html.find(([name]) => name.toLowerCase() === 'strict-transport-security');
  const nosniff = html.find(([name]) => name.toLowerCase() === 'x-content-type-options');
  if (!hsts || !nosniff) throw new Error('helmet no longer sets Strict-Transport-Security and X-Content-Type-Options');
  return { html, other: production ? [nosniff, hsts] : [nosniff] };
}

export function setHeaders(res: Response, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}
