// The pages reach the API through the typed client alone, as any other consumer does. The session
// cookie (HttpOnly) travels with every same-origin request: no token is ever read or stored here.
import { AgentFleetError, createAgentFleetClient } from '@agent-fleet/client';

export const api = createAgentFleetClient({ baseUrl: window.location.origin, timeoutMs: 15_000 });

let sessionEnded = false;

/**
 * Calls `onEnded` once, at the first answer that says the session is over (401): every failure
 * after it is then told as that, not as the bare refusal. For pages that are only for the signed-in.
 */
export function watchSession(onEnded: () => void): void {
  api.use({
    onResponse({ response }) {
      if (response.status !== 401 || sessionEnded) return undefined;
      sessionEnded = true;
      onEnded();
      return undefined;
    },
  });
}

/** What to tell a person about a failure (a thrown error or an error body): the service's own message when it sent one. */
export function messageOf(error: unknown, fallback: string): string {
  if (sessionEnded) return 'Your session has ended: sign in again to go on.';
  const body = error instanceof AgentFleetError ? error.body : error instanceof Error ? undefined : error;
  if (typeof body === 'object' && body !== null) {
    const { error: inner, message } = body as { error?: unknown; message?: unknown };
    if (typeof inner === 'object' && inner !== null && typeof (inner as { message?: unknown }).message === 'string') return (inner as { message: string }).message;
    if (typeof message === 'string') return message;
  }
  if (error instanceof AgentFleetError && error.status === 429) return 'Too many requests: please wait a moment and try again.';
  if (error instanceof TypeError) return 'The service cannot be reached. Please check your connection and try again.';
  return fallback;
}

/**
 * What a 400 says of each field it refused (its `details`), by field name: a path inside the body
 * is dotted (`template.title`), whichever separator the service used. Empty when it named none.
 */
export function fieldProblemsOf(error: unknown): Record<string, string> {
  const body = error instanceof AgentFleetError ? error.body : error instanceof Error ? undefined : error;
  const inner = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const details = typeof inner === 'object' && inner !== null ? (inner as { details?: unknown }).details : undefined;
  const problems: Record<string, string> = {};
  if (!Array.isArray(details)) return problems;
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { field, message } = detail as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || typeof message !== 'string') continue;
    const name = field.replace(/\//g, '.');
    problems[name] ??= message;
  }
  return problems;
}

/**
 * When to try again, from a 429's `Retry-After` (seconds): "in 40 seconds", "in 55 minutes (at
 * 09:12)", for a person who has to decide whether to wait.
 */
export function retryText(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds) || seconds < 0) return 'in a little while';
  if (seconds < 90) return `in ${Math.max(1, Math.ceil(seconds))} seconds`;
  const at = new Date(Date.now() + seconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `in ${Math.ceil(seconds / 60)} minutes (at ${at})`;
}

/**
 * Where to go after signing in or up. The server checked `returnTo` already; the page checks again
 * before it navigates, whatever the attribute holds: a path with exactly one leading '/', still
 * one once normalised, on this origin.
 */
export function landingUrl(value: string | undefined): string {
  const home = new URL('/', window.location.origin).href;
  const isLocalPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !/[\\\u0000-\u001f\u007f]/.test(path);
  if (typeof value !== 'string' || !isLocalPath(value)) return home;
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin || !isLocalPath(url.pathname)) return home;
    return url.href;
  } catch {
    return home;
  }
}

/** `/login`, coming back to the view shown now once signed in again. */
export function signInAgainHref(): string {
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  return `/login?${new URLSearchParams({ returnTo: here }).toString()}`;
}
