import type { Store } from '../data/store';
import type { Principal } from '../domain/access';
import type { User } from '../model';
import { isRecentSignIn } from '../domain/sessions';
import { authenticateUser, type Reauthenticate } from '../domain/users';
import { AppError, currentPasswordRequired, currentPasswordWrong, recentSignInRequired } from '../errors';
import { checkPassword } from '../domain/passwords';
import type { SignInThrottle } from './sign-in-throttle';

/** How recent a provider sign-in must be to stand in for a password the account does not have. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export interface PasswordChecks {
  /**
   * The user with these credentials; every check passes through the throttle, as the attempt of
   * `client` (clientKeyOf) or, given the nonce of a valid device cookie for `email`, of that device.
   */
  signIn(email: string, password: string, client: string, device?: string): Promise<User>;
  /** Re-authentication before a password or e-mail change, for the request of `client`. */
  reauthenticate(client: string): Reauthenticate;
}

export function createPasswordChecks(store: Store, throttle: SignInThrottle, clock: () => number = Date.now): PasswordChecks {
  const counted = async <T>(client: string, account: string, check: () => Promise<T>, isFailure: (error: unknown) => boolean, device?: string): Promise<T> => {
    const attempt = await throttle.reserve(client, account, device);
    try {
      const result = await check();
      await attempt.settle('succeeded');
      return result;
    } catch (error) {
      await attempt.settle(isFailure(error) ? 'failed' : 'abandoned');
      throw error;
    }
  };

  return {
    signIn: (email, password, client, device) =>
      counted(client, email, () => authenticateUser(store, email, password), (error) => error instanceof AppError && error.code === 'unauthorized', device),

    reauthenticate: (client) => async (principal: Principal, currentPassword: string | undefined) => {
      if (principal.kind !== 'user') return;
      const record = await store.users.findWithHashByEmail(principal.user.email);
      if (!record?.password_hash) {
        if (principal.session?.method === 'provider' && isRecentSignIn(principal.session, clock(), RECENT_SIGN_IN_MS)) return;
        throw recentSignInRequired(RECENT_SIGN_IN_MS / 60_000);
      }
      if (currentPassword === undefined) throw currentPasswordRequired();
      const hash = record.password_hash;
      await counted(
        client,
        principal.user.email,
        async () => {
          if (!(await checkPassword(hash, currentPassword))) throw currentPasswordWrong();
        },
        (error) => error instanceof AppError && error.code === 'forbidden',
      );
    },
  };
}
