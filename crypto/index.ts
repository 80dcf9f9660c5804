/**
 * The crypto core: pure functions over WebCrypto (browser workers and node alike), and the one door
 * into this package (`npm run lint` refuses imports of its other modules from outside). UI code
 * does not call these directly; it asks the worker pool (workers/index.ts), which runs them in
 * workers.
 */
export * from './errors.ts';
export type * from './branded.ts';
export { asCipherBytes } from './branded.ts';
export * from './bytes.ts';
export { decodeBase64, decodeBase64Exact, decodeBase64Lenient, encodeBase64 } from './base64.ts';
export * from './record-format.ts';
export { encryptRecord, decryptRecord, type RecordContext } from './record-cipher.ts';
export { RecordDecryptor } from './record-decryptor.ts';
export { encryptBytes, decryptBytes } from './bytes-cipher.ts';
export {
  LINK_KDF_ITERATIONS,
  PRIVATE_KEY_KDF_ITERATIONS,
  KDF_SALT_LENGTH,
  MIN_KDF_ITERATIONS,
  MAX_KDF_ITERATIONS,
  ARGON2_DEFAULT_COST,
  ARGON2_LIMITS,
  assertDefaultCost,
  KDF_SCHEME_ARGON2ID,
  KDF_SCHEME_ARGON2ID_BOUND,
  KDF_SCHEME_PBKDF2_SHA256,
  ACCOUNT_SALT_LABEL,
  normaliseAccountName,
  newBoundArgon2Params,
  HKDF_INFO,
  encodeKdfParams,
  newArgon2Params,
  newKdfParams,
  type KdfParams,
} from './kdf.ts';
export * from './account-kdf.ts';
export * from './key-pair.ts';
export * from './file-key.ts';
export * from './private-key-wrap.ts';
export * from './passkey-key-wrap.ts';
// The private key after a single sign-on (docs/format.md): device, recovery and approval copies.
export { assertAccountKeyPair } from './private-key-copy.ts';
export * from './device-key-wrap.ts';
export * from './recovery-key.ts';
export * from './recovery-key-wrap.ts';
export * from './device-approval.ts';
export * from './approval-phrase.ts';
// The organisation recovery policy (docs/format.md, "The organisation recovery key").
export * from './org-recovery.ts';
export * from './link-keys.ts';
export * from './sha256.ts';
export * from './stored-file-key.ts';
export * from './key-fingerprint.ts';
export * from './team-errors.ts';
export {
  publicKeyHash,
  publicKeyHashOfSpki,
  isKeyHash,
  accountKeysFrom,
  generateEpochKeyPair,
  importVerifyingKey,
  publicKeySpkiOfPrivateKey,
  RSA_PSS_ALGORITHM,
  type AccountKeys,
  type EpochKeyPair,
} from './team-keys.ts';
export { sealEnvelope, openEnvelope, envelopeAad, TEAM_ENVELOPE_VERSION, TEAM_ENVELOPE_AAD_PREFIX, type EnvelopeBinding } from './team-envelope.ts';
export * from './team-manifest.ts';
export * from './team-chain.ts';
