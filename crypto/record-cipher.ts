/**
 * One record in, one record out: AES-256-GCM with the per-record nonce and the header as AAD.
 * A failed tag is CryptoError('INTEGRITY'), never a null or an empty result.
 */
import type { CipherBytes, PlainBytes } from './branded.ts';
import type { Bytes } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { recordNonce, TAG_LENGTH, type FormatHeader } from './record-format.ts';

export interface RecordContext {
  readonly key: CryptoKey;
  readonly iv: Uint8Array;
  readonly header: FormatHeader;
}

export async function encryptRecord(
  context: RecordContext,
  index: number,
  last: boolean,
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<CipherBytes> {
  if (plaintext.byteLength > context.header.recordSize) {
    throw new CryptoError('MALFORMED', `record ${index} holds more than ${context.header.recordSize} bytes`);
  }
  if (!last && plaintext.byteLength !== context.header.recordSize) {
    throw new CryptoError('MALFORMED', `record ${index} is not the last record but is not full`);
  }
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: recordNonce(context.iv, index, last), additionalData: context.header.bytes, tagLength: 128 },
    context.key,
    plaintext,
  );
  return new Uint8Array(ciphertext) as CipherBytes;
}

export async function decryptRecord(
  context: RecordContext,
  index: number,
  last: boolean,
  ciphertext: CipherBytes,
): Promise<PlainBytes> {
  if (ciphertext.byteLength < TAG_LENGTH || ciphertext.byteLength > context.header.recordSize + TAG_LENGTH) {
    throw new CryptoError('INTEGRITY', `record ${index} has an impossible length`);
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: recordNonce(context.iv, index, last), additionalData: context.header.bytes, tagLength: 128 },
      context.key,
      ciphertext,
    );
  } catch (error) {
    if (isAuthenticationFailure(error)) {
      throw new CryptoError('INTEGRITY', `record ${index} failed authentication`, { cause: error });
    }
    throw error;
  }
  return new Uint8Array(plaintext) as Bytes as PlainBytes;
}
