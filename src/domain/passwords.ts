import type { Options } from '@node-rs/argon2';

/**
 * The native argon2 module, loaded by the first hash or check: a process that only ever sees API
 * keys and tokens never maps it (about 1.5 MB resident).
 */
const loadArgon2 = () => require('@node-rs/argon2') as typeof import('@node-rs/argon2');

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
let options: Options | undefined;
const optionsOf = (): Options => (options ??= { algorithm: loadArgon2().Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

export function hashPassword(password: string): Promise<string> {
  return loadArgon2().hash(password, optionsOf());
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown user) it still spends the time
 * of a real check, so response timing does not tell which e-mails exist.
 */
export async function checkPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashPassword('decoy password for unknown users');
    await loadArgon2().verify(await decoy, password).catch(() => false);
    return false;
  }
  return loadArgon2().verify(storedHash, password).catch(() => false);
}
