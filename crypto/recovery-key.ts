/**
 * The recovery key as a person keeps it (docs/format.md, "The private key after a single
 * sign-on"): 20 random bytes shown as 32 characters of Crockford base32 (most significant bits
 * first, 160 bits fill them exactly) in eight dash-separated groups of four, e.g.
 * "7KQ2-M0XA-…". Typed back it is read leniently: any case, with or without dashes and
 * whitespace, O read as 0 and I or L as 1 (Crockford's decoding). Anything else (U, other
 * characters, not 32 characters) is MALFORMED, before any key is derived from it.
 */
import type { Brand } from './branded.ts';
import type { Bytes } from './bytes.ts';
import { randomBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';

export const RECOVERY_KEY_BYTES = 20;
const RECOVERY_KEY_CHARACTERS = 32;
const GROUP = 4;

/** The recovery key as shown: "XXXX-XXXX-…", eight groups. SECRET: it opens the private key; shown once, never logged or stored. */
export type RecoveryKeyText = Brand<string, 'RecoveryKeyText'>;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) {
  DECODE[ALPHABET.charCodeAt(i)] = i;
  DECODE[ALPHABET.toLowerCase().charCodeAt(i)] = i;
}
for (const [typed, read] of [['O', '0'], ['I', '1'], ['L', '1']] as const) {
  DECODE[typed.charCodeAt(0)] = DECODE[typed.toLowerCase().charCodeAt(0)] = ALPHABET.indexOf(read);
}

/** 20 fresh random bytes. The caller zeroes them once the copy is made and the text shown. */
export function generateRecoveryKey(): Bytes {
  return randomBytes(RECOVERY_KEY_BYTES);
}

export function formatRecoveryKey(key: Uint8Array): RecoveryKeyText {
  if (key.length !== RECOVERY_KEY_BYTES) throw new CryptoError('MALFORMED', `a recovery key is ${RECOVERY_KEY_BYTES} bytes`);
  let text = '';
  let bits = 0;
  let bitCount = 0;
  for (const byte of key) {
    bits = ((bits << 8) | byte) & 0xfff;
    bitCount += 8;
    while (bitCount >= 5) {
      bitCount -= 5;
      text += ALPHABET[(bits >> bitCount) & 31];
    }
  }
  return text.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-') as RecoveryKeyText;
}

/** The 20 bytes of a recovery key as typed; MALFORMED unless it is 32 Crockford base32 characters. */
export function parseRecoveryKey(typed: string): Bytes {
  const characters = typeof typed === 'string' ? typed.replace(/[\s-]/g, '') : '';
  if (characters.length !== RECOVERY_KEY_CHARACTERS) {
    throw new CryptoError('MALFORMED', `a recovery key is ${RECOVERY_KEY_CHARACTERS} characters (dashes and spaces aside)`);
  }
  const out = new Uint8Array(RECOVERY_KEY_BYTES);
  let bits = 0;
  let bitCount = 0;
  let o = 0;
  for (let i = 0; i < characters.length; i++) {
    const code = characters.charCodeAt(i);
    const value = code < 128 ? DECODE[code]! : -1;
    if (value < 0) throw new CryptoError('MALFORMED', 'a recovery key holds only the characters 0-9 and A-Z without U');
    bits = ((bits << 5) | value) & 0xfff;
    bitCount += 5;
    if (bitCount >= 8) {
      bitCount -= 8;
      out[o++] = (bits >> bitCount) & 0xff;
    }
  }
  return out;
}
