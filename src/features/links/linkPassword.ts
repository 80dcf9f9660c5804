// The link password the create-link dialog suggests (spec section 9): a German word pair, the
// two-digit year and a 3-digit number (100-999), e.g. 'SonneWolke26-418'. Easy to read out on the
// phone. The two nouns are two different words of LINK_PASSWORD_NOUNS (2247 of them), so there are
// 2247 x 2246 x 900 = 4.5 billion suggestions (2^32; the year adds nothing): what a stolen database
// costs an offline attacker per suggestion is in docs/security.md (the link key is derived with
// argon2id, crypto/link-keys.ts). The admin may type a longer one.
//
// crypto.getRandomValues is a random source, not a cipher: style rule 1 (no crypto.subtle in UI
// code) does not apply to it.
import { LINK_PASSWORD_NOUNS } from './linkPasswordNouns.ts';

/** Uniform integer in [0, bound) without modulo bias. */
function randomBelow(bound: number, random: (array: Uint32Array<ArrayBuffer>) => Uint32Array): number {
  const limit = Math.floor(0x1_0000_0000 / bound) * bound;
  const buffer = new Uint32Array(1);
  for (;;) {
    const value = random(buffer)[0]!;
    if (value < limit) return value % bound;
  }
}

export interface LinkPasswordOptions {
  now?: Date;
  random?: (array: Uint32Array<ArrayBuffer>) => Uint32Array;
}

export function generateLinkPassword({ now = new Date(), random = (array) => crypto.getRandomValues(array) }: LinkPasswordOptions = {}): string {
  const count = LINK_PASSWORD_NOUNS.length;
  const firstIndex = randomBelow(count, random);
  // Uniform over the other words: draw from count - 1 and step over the first.
  const drawn = randomBelow(count - 1, random);
  const secondIndex = drawn >= firstIndex ? drawn + 1 : drawn;
  const year = String(now.getFullYear() % 100).padStart(2, '0');
  const number = 100 + randomBelow(900, random);
  return `${LINK_PASSWORD_NOUNS[firstIndex]}${LINK_PASSWORD_NOUNS[secondIndex]}${year}-${number}`;
}

/**
 * How many different suggestions generateLinkPassword can make: ordered pairs of two different
 * nouns times the 900 numbers (the year is known to an attacker and adds nothing). 2^32.08 today;
 * linkPassword.test.ts pins it. A typed password must cost at least this many guesses
 * (linkPasswordStrength.ts), so typing one never makes a link weaker than accepting the suggestion.
 */
export const SUGGESTED_LINK_PASSWORD_SPACE = LINK_PASSWORD_NOUNS.length * (LINK_PASSWORD_NOUNS.length - 1) * 900;

/** The shape of a generated password (for tests and for telling generated from typed ones). */
export const GENERATED_LINK_PASSWORD = /^[A-Z][a-z]+[A-Z][a-z]+\d{2}-[1-9]\d{2}$/;

