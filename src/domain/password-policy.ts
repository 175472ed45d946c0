import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { invalidValue } from '../errors';

/**
 * zxcvbn's matchers grow much faster than linearly with the length (its own `maxLength` is not
 * applied by the synchronous entry point): a crafted 1,000-character password took seconds. A
 * prefix this long that is hard to guess makes the whole password hard to guess.
 */
const CHECKED_CHARACTERS = 64;
/** zxcvbn scores 0 to 4; below 2 is "too guessable" (under about 10^6 guesses). */
const MIN_SCORE = 2;
/** Words of this service that make a password guessable here (NIST SP 800-63B 5.1.1.2). */
const SERVICE_WORDS = ['agent fleet', 'agentfleet', 'agent-fleet'];

let commonPasswords: ReadonlySet<string> | undefined;

/** The dictionaries (about 200,000 words) load on the first check, once per process. */
function loadDictionaries(): ReadonlySet<string> {
  if (commonPasswords) return commonPasswords;
  // Some 12 MB of words: loaded by the first password check, not by every process that starts.
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  zxcvbnOptions.setOptions({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    // Each extra l33t substitution multiplies the variants tried; 4 finds `p@$$w0rd` and stays fast.
    l33tMaxSubstitutions: 4,
  });
  commonPasswords = new Set((common.dictionary.passwords as string[]).map((word) => word.toLowerCase()));
  return commonPasswords;
}

/** Who the password belongs to: their e-mail and name make it guessable too. */
export interface PasswordOwner {
  email?: string | undefined;
  name?: string | undefined;
}

/**
 * Why a password must be refused, or undefined when it may be used: one of the commonly used and
 * breached passwords (case-insensitively), or easy to guess with the owner's e-mail and name
 * known. The text never contains the password.
 */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | undefined {
  const known = loadDictionaries();
  if (known.has(password.toLowerCase())) return 'is one of the most commonly used passwords; choose another';
  const result = zxcvbn(password.slice(0, CHECKED_CHARACTERS), personalWords(owner));
  if (result.score >= MIN_SCORE) return undefined;
  if (result.sequence.some((match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs')) {
    return "is too easy to guess: it is built from your e-mail address, your name or this service's name";
  }
  const hint = result.feedback.warning ? `: ${result.feedback.warning.replace(/\.$/, '').toLowerCase()}` : '';
  return `is too easy to guess${hint}; a few unrelated words make a strong password`;
}

/** Refuses a password that must not be used, as a validation error on the `password` field (400). */
export function assertAcceptablePassword(password: string, owner: PasswordOwner = {}): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw invalidValue(`password ${problem}`, [{ field: 'password', in: 'body', message: problem }]);
}

function personalWords({ email, name }: PasswordOwner): string[] {
  const words = [...SERVICE_WORDS];
  if (email) {
    const address = email.trim().toLowerCase();
    const [local = '', domain = ''] = address.split('@');
    words.push(address, local, ...local.split(/[._+-]+/), domain.split('.')[0] ?? '');
  }
  if (name) words.push(name.trim(), ...name.trim().split(/\s+/));
  return words.filter((word) => word.length >= 3);
}
