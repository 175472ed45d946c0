import { checkReturnTo } from '../../src/http/return-to';
import { describeEachDatabase } from '../support/harness';

const PUBLIC_URL = 'http://localhost:8000';

/** Values that name, or normalise to, another origin (or to a script): each must be refused. */
const HOSTILE: string[] = [
  '/.//evil.example/',
  '/././/evil.example/path?x=1',
  '/%2e//evil.example',
  '/%2E//evil.example',
  '/.%2e//evil.example',
  '/%2e%2e//evil.example',
  '/..//evil.example',
  '/a/../..//evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\/evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  ' //evil.example',
  '/evil\u0000.example',
  'https://evil.example/',
  'http:evil.example',
  'HTTPS://evil.example',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'evil.example',
  `/${'a'.repeat(2048)}`,
];

/** Values that stay on this origin, with what the service answers (normalised). */
const SAFE: Array<[string, string]> = [
  ['/', '/'],
  ['/agents?status=idle', '/agents?status=idle'],
  ['/api/v1/me?fields=name#top', '/api/v1/me?fields=name#top'],
  ['/a/./b/../c', '/a/c'],
  ['/..', '/'],
  ['/ok?next=//evil.example#//evil.example', '/ok?next=//evil.example#//evil.example'],
  // Percent-encoded slashes and backslashes stay encoded: a path segment of this origin, not a host.
  ['/%5cevil.example', '/%5cevil.example'],
  ['/%2f%2fevil.example', '/%2f%2fevil.example'],
  ['/%09/evil.example', '/%09/evil.example'],
];

describe('checkReturnTo (open redirects after sign-in)', () => {
  it.each(HOSTILE.map((value) => [JSON.stringify(value), value]))('when returnTo is %s, then it is refused', (_label, value) => {
    expect(checkReturnTo(value, PUBLIC_URL)).toBeUndefined();
  });

  it.each(SAFE)('when returnTo is %p, then it is the path %p of this origin', (value, expected) => {
    const checked = checkReturnTo(value, PUBLIC_URL);
    expect(checked).toBe(expected);
    expect(new URL(checked ?? '', PUBLIC_URL).origin).toBe(PUBLIC_URL);
  });

  it('when returnTo is absent or empty, then it is /; when it is not a string, it is refused', () => {
    expect(checkReturnTo(undefined, PUBLIC_URL)).toBe('/');
    expect(checkReturnTo('', PUBLIC_URL)).toBe('/');
    expect(checkReturnTo(['/a', '/b'], PUBLIC_URL)).toBeUndefined();
    expect(checkReturnTo({ path: '/' }, PUBLIC_URL)).toBeUndefined();
  });

  it('then whatever it answers never starts with two slashes or a slash and a backslash', () => {
    for (const value of [...HOSTILE, ...SAFE.map(([input]) => input)]) {
      const checked = checkReturnTo(value, PUBLIC_URL);
      if (checked === undefined) continue;
      expect(checked).toMatch(/^\/(?![/\\])/);
      expect(new URL(checked, PUBLIC_URL).origin).toBe(PUBLIC_URL);
    }
  });
});

describeEachDatabase('the /login page with a hostile returnTo', (app) => {
  it.each(HOSTILE.filter((value) => value.length < 100).map((value) => [JSON.stringify(value), value]))(
    'when /login?returnTo=%s is opened, then the form returns to / and the provider buttons carry no returnTo',
    async (_label, value) => {
      const res = await app().anonymous.get('/login').query({ returnTo: value });
      expect(res.status).toBe(200);
      expect(res.text).toContain('<form id="password-form" action="/api/auth/login" method="post" data-return-to="/">');
      expect(res.text).not.toContain('returnTo=');
      expect(res.text).not.toContain('evil.example');
    },
  );
});
