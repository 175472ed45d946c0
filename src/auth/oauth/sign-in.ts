import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { Store } from '../../data/store';
import { linkIdentity, signInWithIdentity, type SignInOutcome } from '../../domain/identities';
import { checkProviderClaims } from '../../domain/provider-claims';
import type { User } from '../../model';
import { SignInError } from '../../errors';
import type { FlowCookieSealer, PendingSignIn } from './flow-cookie';
import { sealTokens } from './provider-tokens';
import type { OAuthProvider } from './providers';
import type { TokenCipher } from './token-cipher';

export interface SignInDependencies {
  store: Store;
  sealer: FlowCookieSealer;
  cipher: TokenCipher;
  clock?: () => number;
}

export interface StartedSignIn {
  authorizationUrl: string;
  /** For the `oauth_state` cookie. */
  state: string;
  /** For the encrypted check cookie: verifier, nonce, state, provider and return path. */
  flowCookie: string;
}

export interface CallbackInput {
  query: Record<string, unknown>;
  stateCookie: string | undefined;
  flowCookie: string | undefined;
}

export interface CompletedSignIn {
  user: User;
  outcome: SignInOutcome;
  returnTo: string;
}

const VERIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const VERIFIER_LENGTH = 64;

/**
 * The authorization request of the specification: code flow with state, PKCE S256 (every client,
 * as RFC 9700 advises) and nonce. With `linkUserId` (a signed-in user's own request) the callback
 * links the identity to that user instead of signing anyone in.
 */
export async function startSignIn(provider: OAuthProvider, sealer: FlowCookieSealer, returnTo: string, linkUserId?: string): Promise<StartedSignIn> {
  const configuration = await provider.client();
  const pending: PendingSignIn = {
    provider: provider.config.id,
    state: randomBytes(32).toString('hex'),
    codeVerifier: randomVerifier(),
    nonce: client.randomNonce(),
    returnTo,
    ...(linkUserId === undefined ? {} : { linkUserId }),
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: provider.config.redirectUri,
    scope: provider.config.scopes.join(' '),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.href, state: pending.state, flowCookie: await sealer.seal(pending) };
}

/**
 * The rest of the callback: the provider's error if any; for a link, the browser must still be
 * signed in as the user who started it (`sessionUserId`); then the code exchange (with the
 * verifier, and the ID token's signature, issuer, audience, expiry and nonce checked), the claims
 * held to the contract's rules, and the user, identity and tokens in one transaction.
 */
export async function completeSignIn(
  provider: OAuthProvider,
  deps: SignInDependencies,
  pending: PendingSignIn,
  query: Record<string, unknown>,
  sessionUserId: () => Promise<string | undefined>,
): Promise<CompletedSignIn> {
  const error = query.error;
  if (error !== undefined) {
    const description = typeof query.error_description === 'string' ? `: ${query.error_description}` : '';
    if (error === 'access_denied') throw new SignInError('access_denied', `The user or the provider denied access${description}`);
    throw new SignInError('provider_error', `The provider answered ${String(error)}${description}`);
  }
  if (pending.linkUserId !== undefined && (await sessionUserId()) !== pending.linkUserId) {
    throw new SignInError('link_session_mismatch', 'The browser is no longer signed in as the user who started the link');
  }
  const configuration = await provider.client();
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl(provider, query), {
    pkceCodeVerifier: pending.codeVerifier,
    expectedNonce: pending.nonce,
    expectedState: pending.state,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new SignInError('invalid_id_token', 'The token response holds no ID token');
  const identity = checkProviderClaims(provider.config.id, claims);
  const clock = deps.clock ?? Date.now;
  const saveTokens = (store: Store, userId: string) =>
    store.providerTokens.save(userId, provider.config.id, sealTokens(deps.cipher, userId, provider.config.id, tokens, clock()), new Date(clock()).toISOString());
  const { user, outcome } =
    pending.linkUserId === undefined
      ? await signInWithIdentity(deps.store, identity, saveTokens)
      : await linkIdentity(deps.store, pending.linkUserId, identity, saveTokens);
  return { user, outcome, returnTo: pending.returnTo };
}

/**
 * The callback's first step: rejects a missing, different or foreign state before anything else
 * happens (CSRF), and answers what the start sealed.
 */
export async function openCallback(provider: OAuthProvider, sealer: FlowCookieSealer, input: CallbackInput): Promise<PendingSignIn> {
  const received = input.query.state;
  if (typeof received !== 'string' || received === '') throw new SignInError('invalid_state', 'The callback carries no state');
  if (!input.stateCookie || !input.flowCookie) throw new SignInError('invalid_state', 'The oauth_state or check cookie is missing (expired, or another browser)');
  if (!sameText(received, input.stateCookie)) throw new SignInError('invalid_state', 'The callback state differs from the oauth_state cookie');
  const pending = await sealer.open(input.flowCookie);
  if (!pending) throw new SignInError('invalid_state', 'The check cookie is expired or was not issued by this service');
  if (pending.provider !== provider.config.id) {
    throw new SignInError('invalid_state', `The sign-in was started with provider "${pending.provider}", not this one`);
  }
  if (!sameText(received, pending.state)) throw new SignInError('invalid_state', 'The callback state differs from the one in the check cookie');
  return pending;
}

/** The exact registered redirect URI with the callback's own parameters (openid-client takes redirect_uri from it). */
function callbackUrl(provider: OAuthProvider, query: Record<string, unknown>): URL {
  const url = new URL(provider.config.redirectUri);
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') url.searchParams.append(name, item);
    }
  }
  return url;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** 64 letters and digits, uniformly drawn (the specification's reference verifier; RFC 7636 allows 43 to 128). */
function randomVerifier(): string {
  return Array.from({ length: VERIFIER_LENGTH }, () => VERIFIER_ALPHABET[randomInt(VERIFIER_ALPHABET.length)]).join('');
}
