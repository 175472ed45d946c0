/** A cookie as a browser keeps it: host-only (ports share cookies, as in browsers), with its attributes. */
export interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expiresAt?: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: string;
}

/** One Set-Cookie header, parsed: the attributes as given (for assertions) and the cookie. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...rest] = header.split(';');
  const separator = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key = '', ...value] = part.trim().split('=');
    attributes[key.toLowerCase()] = value.length > 0 ? value.join('=') : true;
  }
  return { name: pair.slice(0, separator).trim(), value: pair.slice(separator + 1).trim(), attributes };
}

export class CookieJar {
  private cookies: StoredCookie[] = [];

  store(url: URL, headers: string[]): void {
    for (const header of headers) {
      const { name, value, attributes } = parseSetCookie(header);
      const path = typeof attributes.path === 'string' ? attributes.path : '/';
      this.cookies = this.cookies.filter((cookie) => !(cookie.name === name && cookie.host === url.hostname && cookie.path === path));
      const maxAge = typeof attributes['max-age'] === 'string' ? Number(attributes['max-age']) : undefined;
      const expires = typeof attributes.expires === 'string' ? Date.parse(attributes.expires) : undefined;
      const expiresAt = maxAge !== undefined ? Date.now() + maxAge * 1000 : expires;
      if (expiresAt !== undefined && expiresAt <= Date.now()) continue;
      this.cookies.push({
        name,
        value,
        host: url.hostname,
        path,
        expiresAt,
        httpOnly: attributes.httponly === true,
        secure: attributes.secure === true,
        sameSite: typeof attributes.samesite === 'string' ? attributes.samesite : undefined,
      });
    }
  }

  /** The Cookie header a browser would send to `url` (Secure cookies go to loopback over http, as browsers do for localhost). */
  header(url: URL): string | undefined {
    const now = Date.now();
    const matching = this.cookies.filter(
      (cookie) =>
        cookie.host === url.hostname &&
        (cookie.expiresAt === undefined || cookie.expiresAt > now) &&
        (url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`)),
    );
    return matching.length > 0 ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') : undefined;
  }

  get(name: string): StoredCookie | undefined {
    return this.cookies.find((cookie) => cookie.name === name);
  }

  set(cookie: StoredCookie): void {
    this.cookies = this.cookies.filter((stored) => !(stored.name === cookie.name && stored.host === cookie.host && stored.path === cookie.path));
    this.cookies.push(cookie);
  }

  remove(name: string): void {
    this.cookies = this.cookies.filter((cookie) => cookie.name !== name);
  }
}

/** fetch with a cookie jar and no automatic redirects: each hop is a response to look at. */
export class CookieJarClient {
  constructor(readonly jar: CookieJar = new CookieJar()) {}

  get(url: string | URL): Promise<Response> {
    return this.send(new URL(url), { method: 'GET' });
  }

  postForm(url: string | URL, fields: Record<string, string>): Promise<Response> {
    return this.send(new URL(url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Any method, with the jar's cookies added to `headers` (an Origin, Accept or Authorization the test chooses). */
  request(url: string | URL, method: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(new URL(url), { method, headers });
  }

  private async send(url: URL, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Response> {
    const cookie = this.jar.header(url);
    const response = await fetch(url, {
      ...init,
      headers: { ...init.headers, ...(cookie ? { Cookie: cookie } : {}) },
      redirect: 'manual',
    });
    this.jar.store(url, response.headers.getSetCookie());
    return response;
  }
}
