import { parse as parseCookies } from 'cookie';
import type { SessionService } from '../auth/sessions';
import type { SignedIn } from '../domain/sessions';

/**
 * The user and live session the request's session cookie names, or undefined (no cookie, or one
 * that fails any check, its session ended included). For the pages and the OAuth callback, which
 * run outside `authenticate`.
 */
export async function sessionOfCookie(sessions: SessionService, cookieName: string, cookieHeader: string | undefined): Promise<SignedIn | undefined> {
  const token = cookieHeader ? parseCookies(cookieHeader)[cookieName] : undefined;
  return token === undefined ? undefined : sessions.resolve(token);
}
