/**
 * The fingerprint phrase of a device-approval request (docs/format.md, "The private key after a
 * single sign-on"): five words both devices show, each computed from the requester's public key as
 * that device has it. A server that swaps the requester's key for its own makes the approver show
 * other words, and the person approves only when the two devices agree.
 *
 *   digest = SHA-256(APPROVAL_PHRASE_LABEL || 0x00 || SPKI DER)
 *   words  = its first 55 bits, most significant first, as five 11-bit indices into the BIP-39
 *            English word list, joined by single spaces
 *
 * The word list comes from the caller (the worker passes @scure/bip39's English list): the crypto
 * core imports no package but hash-wasm (docs/architecture.md, "Layers").
 */
import { decodeBase64 } from './base64.ts';
import { CryptoError } from './errors.ts';
import { importApprovalPublicKey } from './device-approval.ts';
import { labelledData } from './private-key-copy.ts';

export const APPROVAL_PHRASE_LABEL = 'sealdrop/device-approval-phrase/v1';
export const APPROVAL_PHRASE_WORDS = 5;
const BITS_PER_WORD = 11;
const BIP39_WORDS = 2 ** BITS_PER_WORD;

/** The phrase of an ECDH P-256 public key (base64 SPKI; MALFORMED for anything else) in `wordlist`, the BIP-39 English list. */
export async function approvalPhrase(requesterSpki: string, wordlist: readonly string[]): Promise<string> {
  if (wordlist.length !== BIP39_WORDS) throw new CryptoError('MALFORMED', `a BIP-39 word list has ${BIP39_WORDS} words`);
  await importApprovalPublicKey(requesterSpki, "the requester's public key");
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', labelledData(APPROVAL_PHRASE_LABEL, decodeBase64(requesterSpki, 'public key'))));
  // 55 bits fit in the first 7 bytes; BigInt keeps them exact (a Number holds only 53).
  const first = digest.subarray(0, 7).reduce((value, byte) => (value << 8n) | BigInt(byte), 0n) >> 1n;
  const words: string[] = [];
  for (let i = APPROVAL_PHRASE_WORDS - 1; i >= 0; i--) {
    words.push(wordlist[Number((first >> BigInt(i * BITS_PER_WORD)) & 0x7ffn)]!);
  }
  return words.join(' ');
}
