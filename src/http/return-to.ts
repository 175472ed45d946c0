const MAX_LENGTH = 2048;
// Backslashes and control characters: browsers read `/\evil.example` as another host, and URL
// parsers drop tabs and newlines (`/\t/evil.example` is `//evil.example`).
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/**
 * The path to land on after signing in: `/` when none is given, the same path back (normalised)
 * when it is one of this service's own, undefined for anything that could leave the origin (an
 * open redirect). The check is made on the NORMALISED path too: `/.//evil.example/`, `/%2e//evil`
 * and `/..//evil` all normalise to a scheme-relative `//evil...`, which a browser reads as a host.
 */
export function checkReturnTo(value: unknown, publicUrl: string): string | undefined {
  if (value === undefined || value === '') return '/';
  if (typeof value !== 'string' || value.length > MAX_LENGTH || !isLocalPath(value)) return undefined;
  const origin = new URL(publicUrl).origin;
  const url = new URL(value, origin);
  if (url.origin !== origin) return undefined;
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  if (!isLocalPath(normalised) || new URL(normalised, origin).origin !== origin) return undefined;
  return normalised;
}

/** Starts with exactly one `/`, and nothing a browser would read as another host. */
function isLocalPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !UNSAFE.test(path);
}
