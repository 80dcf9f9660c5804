/**
 * Key handling of docs/format.md ("Keys") with node:crypto, independent of crypto/:
 * the password-wrapped private key (what a key backup holds), RSA-OAEP file keys, and the keys of
 * download links. Used by tests as the reference and by the offline decrypt command.
 */
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  constants,
  type KeyObject,
} from 'node:crypto';
import { ACCOUNT_HKDF_INFO, hkdf32, NODE_ARGON2_DEFAULT_COST } from './account-kdf.ts';
import { OfflineCryptoError, strictBase64 } from './errors.ts';
import { kdfBlock, kdfBlockLength, kdfMaster, readKdfBlock, SCHEME_ARGON2ID, SCHEME_PBKDF2, type NodeArgon2Params, type NodeKdfParams } from './kdf-params.ts';

const PRIVATE_KEY_ITERATIONS = 250_000;
const LINK_ITERATIONS = 150_000;
const LINK_WRAP_INFO = 'sealdrop/link-wrap/v1';
const LINK_VERIFIER_INFO = 'sealdrop/link-verifier/v1';

function gcmSeal(key: Buffer, plain: Buffer, aad?: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** Opens iv || ciphertext || tag; returns undefined only to let the caller pick the error code. */
function gcmOpen(key: Buffer, sealed: Buffer, aad?: Buffer): Buffer | undefined {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const out = decipher.update(sealed.subarray(12, sealed.length - 16));
  try {
    return Buffer.concat([out, decipher.final()]);
  } catch {
    return undefined;
  }
}

// ---- RSA key pair ----

export interface NodeKeyPair {
  publicKeySpki: string;
  privateKey: KeyObject;
}

export function generateRsaKeyPair(): NodeKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 65537 });
  return { publicKeySpki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), privateKey };
}

// ---- The private key under the login password ----

export interface StoredKeyData {
  encryptedPrivateKey: string;
  kdfSalt: string;
}

/**
 * The old scheme (1): PBKDF2-SHA256 straight to the AES key. What the app wrote before zero-knowledge sign-in;
 * kept to make fixtures of old data and to test that it still opens.
 */
export function wrapPrivateKey(privateKey: KeyObject, password: string, iterations = PRIVATE_KEY_ITERATIONS): StoredKeyData {
  const params: NodeKdfParams = { scheme: SCHEME_PBKDF2, iterations, salt: randomBytes(16) };
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  return { encryptedPrivateKey: gcmSeal(kdfMaster(password, params), pkcs8).toString('base64'), kdfSalt: kdfBlock(params).toString('base64') };
}

/**
 * Scheme 3 (or 2), what the app writes now: the key under HKDF(argon2id(password, the account's
 * parameter block), "sealdrop/private-key-wrap/v1"); `kdfSalt` is that block.
 */
export function wrapPrivateKeyScheme2(privateKey: KeyObject, password: string, accountKdfParams: string): StoredKeyData {
  const params = readKdfBlock(strictBase64(accountKdfParams, 'account KDF parameters'));
  if (params.scheme === SCHEME_PBKDF2) throw new OfflineCryptoError('MALFORMED', 'account KDF parameters must be argon2id (scheme 3 or 2)');
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  return { encryptedPrivateKey: gcmSeal(privateKeyWrappingKey(password, params), pkcs8).toString('base64'), kdfSalt: accountKdfParams };
}

function privateKeyWrappingKey(password: string, params: NodeKdfParams): Buffer {
  const master = kdfMaster(password, params);
  if (params.scheme === SCHEME_PBKDF2) return master;
  try {
    return hkdf32(master, ACCOUNT_HKDF_INFO.privateKeyWrap);
  } finally {
    master.fill(0);
  }
}

/** Opens key data (or a backup) of either scheme; WRONG_PASSWORD for a wrong password or altered data. */
export function unwrapPrivateKey(data: StoredKeyData, password: string): KeyObject {
  const params = readKdfBlock(strictBase64(data.kdfSalt, 'kdfSalt'), PRIVATE_KEY_ITERATIONS);
  const sealed = strictBase64(data.encryptedPrivateKey, 'encryptedPrivateKey');
  if (sealed.length <= 28) throw new OfflineCryptoError('MALFORMED', 'encryptedPrivateKey is too short');
  const pkcs8 = gcmOpen(privateKeyWrappingKey(password, params), sealed);
  if (!pkcs8) throw new OfflineCryptoError('WRONG_PASSWORD', 'incorrect password or corrupted key data');
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

// ---- File keys wrapped for the recipient ----

export function wrapFileKey(publicKeySpki: string, rawKey: Buffer): string {
  const publicKey = createPublicKey({ key: strictBase64(publicKeySpki, 'public key'), format: 'der', type: 'spki' });
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, rawKey).toString('base64');
}

export function unwrapFileKey(privateKey: KeyObject, wrapped: string): Buffer {
  const bytes = strictBase64(wrapped, 'encrypted file key');
  if (bytes.length !== 256) throw new OfflineCryptoError('MALFORMED', 'encrypted file key must be 256 bytes');
  let raw: Buffer;
  try {
    raw = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes);
  } catch (error) {
    throw new OfflineCryptoError('WRONG_KEY', 'file key was not wrapped for this private key', { cause: error });
  }
  if (raw.length !== 32) throw new OfflineCryptoError('WRONG_KEY', 'unwrapped file key is not 32 bytes');
  return raw;
}

// ---- Download links ----

export function formatFragment(keys: ReadonlyMap<string, Buffer>): string {
  return [...keys].map(([fileId, raw]) => `${fileId}:${raw.toString('base64')}`).join(',');
}

export function parseFragment(fragment: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const pair of fragment.replace(/^#/, '').split(',')) {
    const match = /^([A-Za-z0-9._~-]{1,128}):(.+)$/.exec(pair);
    if (!match) throw new OfflineCryptoError('MALFORMED', 'bad fragment pair');
    const raw = strictBase64(match[2]!, 'fragment key');
    if (raw.length !== 32) throw new OfflineCryptoError('MALFORMED', 'fragment key must be 32 bytes');
    out.set(match[1]!, raw);
  }
  return out;
}

function linkSecrets(password: string, params: NodeKdfParams): { wrapKey: Buffer; verifier: Buffer } {
  const master = kdfMaster(password, params);
  try {
    return { wrapKey: hkdf32(master, LINK_WRAP_INFO), verifier: hkdf32(master, LINK_VERIFIER_INFO) };
  } finally {
    master.fill(0);
  }
}

const fileKeyAad = (fileId: string): Buffer => Buffer.from(`sealdrop/link-file-key/v1:${fileId}`, 'utf8');

export interface NodeLinkProtection {
  kdfParams: string;
  verifier: string;
  reencryptedKeys: Record<string, string>;
}

/** A link's KDF: scheme 2 (argon2id, the default cost unless given) or the old scheme 1 (PBKDF2). */
export type LinkKdfChoice = { scheme: 2; cost?: Omit<NodeArgon2Params, 'salt'> } | { scheme: 1; iterations?: number };

export function protectLinkKeys(password: string, keys: ReadonlyMap<string, Buffer>, kdf: LinkKdfChoice = { scheme: 2 }): NodeLinkProtection {
  const salt = randomBytes(16);
  const params: NodeKdfParams =
    kdf.scheme === 1
      ? { scheme: SCHEME_PBKDF2, iterations: kdf.iterations ?? LINK_ITERATIONS, salt }
      : { scheme: SCHEME_ARGON2ID, ...(kdf.cost ?? NODE_ARGON2_DEFAULT_COST), salt };
  const block = kdfBlock(params);
  const { wrapKey, verifier } = linkSecrets(password, params);
  const linkKey = randomBytes(32);
  const wrappedKey = Buffer.concat([block, gcmSeal(wrapKey, linkKey, block)]).toString('base64');
  const reencryptedKeys: Record<string, string> = {};
  for (const [fileId, raw] of keys) {
    reencryptedKeys[fileId] = `${wrappedKey}:${gcmSeal(linkKey, raw, fileKeyAad(fileId)).toString('base64')}`;
  }
  return { kdfParams: block.toString('base64'), verifier: verifier.toString('base64'), reencryptedKeys };
}

export function linkVerifier(password: string, kdfParams: string): string {
  return linkSecrets(password, readKdfBlock(strictBase64(kdfParams, 'link KDF parameters'))).verifier.toString('base64');
}

/** The parameter block at the start of a link's wrapped key (its length follows from its first byte). */
function linkBlockOf(wrapped: Buffer): Buffer {
  const blockLength = kdfBlockLength(wrapped[0]);
  if (blockLength === undefined) {
    const known = [kdfBlockLength(SCHEME_PBKDF2)!, kdfBlockLength(SCHEME_ARGON2ID)!].some((length) => wrapped.length === length + 12 + 32 + 16);
    throw new OfflineCryptoError(known ? 'UNSUPPORTED_VERSION' : 'MALFORMED', 'link wrapped key of an unknown KDF scheme or length');
  }
  if (wrapped.length !== blockLength + 12 + 32 + 16) throw new OfflineCryptoError('MALFORMED', 'link wrapped key length');
  return wrapped.subarray(0, blockLength);
}

export function openLinkKeys(password: string, reencryptedKeys: Record<string, string>): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [fileId, opened] of openLinkKeysEach(password, reencryptedKeys)) {
    if (opened instanceof OfflineCryptoError) throw opened;
    out.set(fileId, opened);
  }
  return out;
}

/**
 * The same, file by file (npm run fetch): a damaged or moved key fails only its own file
 * (INTEGRITY, MALFORMED); a password that does not open the link key throws WRONG_PASSWORD for
 * all. The KDF runs once per distinct wrapped link key (once per link).
 */
export function openLinkKeysEach(password: string, reencryptedKeys: Record<string, string>): Map<string, Buffer | OfflineCryptoError> {
  const out = new Map<string, Buffer | OfflineCryptoError>();
  const linkKeys = new Map<string, Buffer>();
  for (const [fileId, value] of Object.entries(reencryptedKeys)) {
    try {
      const [wrappedText, sealedText, extra] = value.split(':');
      if (wrappedText === undefined || sealedText === undefined || extra !== undefined) {
        throw new OfflineCryptoError('MALFORMED', "link key is not 'wrappedKey:ivPlusCiphertext'");
      }
      let linkKey = linkKeys.get(wrappedText);
      if (!linkKey) {
        const wrapped = strictBase64(wrappedText, 'link wrapped key');
        const block = linkBlockOf(wrapped);
        const { wrapKey } = linkSecrets(password, readKdfBlock(block));
        linkKey = gcmOpen(wrapKey, wrapped.subarray(block.length), block);
        if (!linkKey) throw new OfflineCryptoError('WRONG_PASSWORD', 'link password does not open its keys');
        linkKeys.set(wrappedText, linkKey);
      }
      const sealed = strictBase64(sealedText, 'link file key');
      if (sealed.length !== 12 + 32 + 16) throw new OfflineCryptoError('MALFORMED', 'link file key length');
      const raw = gcmOpen(linkKey, sealed, fileKeyAad(fileId));
      if (!raw) throw new OfflineCryptoError('INTEGRITY', 'link file key failed authentication');
      out.set(fileId, raw);
    } catch (error) {
      if (!(error instanceof OfflineCryptoError) || error.code === 'WRONG_PASSWORD') throw error;
      out.set(fileId, error);
    }
  }
  return out;
}
