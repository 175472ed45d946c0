const MAX_LENGTH = 2048;
// Backslashes and control characters: browsers read `/\evil.example` as another host.
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/**
 * The path to land on after signing in: `/` when none is given, the same path back when it is
 * one of this service's own, undefined for anything that could leave the origin (an open redirect).
 */
export function checkReturnTo(value: unknown, publicUrl: string): string | undefined {
  if (value === undefined || value === '') return '/';
  if (typeof value !== 'string' || value.length > MAX_LENGTH || UNSAFE.test(value)) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  const origin = new URL(publicUrl).origin;
  const url = new URL(value, origin);
  if (url.origin !== origin) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
