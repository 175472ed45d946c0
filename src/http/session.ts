import { parse as parseCookies } from 'cookie';
import type { TokenService } from '../auth/tokens';
import { SESSION_COOKIE } from './authenticate';

/**
 * The id of the user the request's session cookie names, or undefined (no cookie, or one that
 * fails verification). For the pages and the OAuth callback, which run outside `authenticate`.
 */
export async function sessionUserId(tokens: TokenService, cookieHeader: string | undefined): Promise<string | undefined> {
  const token = cookieHeader ? parseCookies(cookieHeader)[SESSION_COOKIE] : undefined;
  if (token === undefined) return undefined;
  return tokens.verify(token);
}
