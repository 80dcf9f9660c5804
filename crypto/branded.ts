/**
 * Branded types keep encrypted and decrypted values apart at compile time: a function that wants
 * plaintext cannot be handed ciphertext, and a wrapped key cannot be passed where a raw key is
 * expected. Brands are erased at runtime; values are created only by the functions that produce
 * them (or by the parse* functions that validate outside input).
 */
import type { Bytes } from './bytes.ts';

declare const brand: unique symbol;
export type Brand<T, Name extends string> = T & { readonly [brand]: Name };

/** Decrypted file content (or content about to be encrypted). */
export type PlainBytes = Brand<Bytes, 'PlainBytes'>;
/** Bytes of the encrypted file format (header, records). */
export type CipherBytes = Brand<Bytes, 'CipherBytes'>;

/** Standard base64 (RFC 4648 section 4, padded). */
export type Base64 = Brand<string, 'Base64'>;
/** Lower-case hex SHA-256 of a file's plaintext. */
export type Sha256Hex = Brand<string, 'Sha256Hex'>;
/** base64 of the 12-byte per-file IV (the spec's encryption IV). */
export type FileIvBase64 = Brand<string, 'FileIvBase64'>;
/** base64 of the RSA-OAEP ciphertext of a raw file key (the spec's encrypted key). */
export type WrappedFileKey = Brand<string, 'WrappedFileKey'>;
/** base64 SPKI of an RSA-OAEP public key. */
export type PublicKeySpki = Brand<string, 'PublicKeySpki'>;
/** base64(IV || AES-GCM(PKCS8)): the spec's encryptedPrivateKey. SECRET-ADJACENT: do not log. */
export type EncryptedPrivateKey = Brand<string, 'EncryptedPrivateKey'>;
/** base64 of a KDF parameter block (salt plus algorithm and iterations): the spec's kdfSalt. */
export type KdfSalt = Brand<string, 'KdfSalt'>;
/** 'wrappedKey:ivPlusCiphertext', a file key wrapped for a password-protected download link. */
export type LinkWrappedKey = Brand<string, 'LinkWrappedKey'>;
/** base64 of the KDF parameters of a link password (not secret). */
export type LinkKdfParams = Brand<string, 'LinkKdfParams'>;
/** base64 of the link password verifier. SECRET: it proves knowledge of the password; never log. */
export type LinkPasswordVerifier = Brand<string, 'LinkPasswordVerifier'>;
/** URL fragment 'fileId:base64key,...'. SECRET: holds raw file keys; never log or send to a server. */
export type LinkFragment = Brand<string, 'LinkFragment'>;

/**
 * Marks bytes from outside (a download, a stored blob) as claimed ciphertext, the only input the
 * decrypt functions take. It checks nothing: decryption authenticates every record.
 */
export function asCipherBytes(bytes: Bytes): CipherBytes {
  return bytes as CipherBytes;
}
/** base64 of a scheme-2 KDF parameter block for an account's login (docs/api.md, pre-login). Not secret. */
export type AccountKdfParams = Brand<string, 'AccountKdfParams'>;
/**
 * base64 of the 32-byte authentication secret derived from the login password. SECRET: it signs in
 * (the server stores only argon2id of it), but it cannot open the private key; never log.
 */
export type AuthSecret = Brand<string, 'AuthSecret'>;
