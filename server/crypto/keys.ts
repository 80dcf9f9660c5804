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
  hkdfSync,
  pbkdf2Sync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  constants,
  type KeyObject,
} from 'node:crypto';
import { OfflineCryptoError, strictBase64 } from './errors.ts';

const PRIVATE_KEY_ITERATIONS = 250_000;
const LINK_ITERATIONS = 150_000;

// ---- KDF parameter block: scheme(1) = 1 | iterations u32 BE | salt(16); a bare 16-byte salt is legacy ----

interface Pbkdf2Params {
  iterations: number;
  salt: Buffer;
}

function paramsBlock(params: Pbkdf2Params): Buffer {
  const out = Buffer.alloc(21);
  out[0] = 1;
  out.writeUInt32BE(params.iterations, 1);
  params.salt.copy(out, 5);
  return out;
}

function readParams(bytes: Buffer, legacyIterations: number | undefined): Pbkdf2Params {
  if (bytes.length === 16 && legacyIterations !== undefined) return { iterations: legacyIterations, salt: bytes };
  if (bytes.length !== 21) throw new OfflineCryptoError('MALFORMED', 'KDF parameters have the wrong length');
  if (bytes[0] !== 1) throw new OfflineCryptoError('UNSUPPORTED_VERSION', 'unknown KDF scheme');
  const iterations = bytes.readUInt32BE(1);
  if (iterations < 100_000 || iterations > 10_000_000) throw new OfflineCryptoError('MALFORMED', 'KDF iterations out of range');
  return { iterations, salt: bytes.subarray(5) };
}

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

export function wrapPrivateKey(privateKey: KeyObject, password: string, iterations = PRIVATE_KEY_ITERATIONS): StoredKeyData {
  const params = { iterations, salt: randomBytes(16) };
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), params.salt, iterations, 32, 'sha256');
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  return { encryptedPrivateKey: gcmSeal(key, pkcs8).toString('base64'), kdfSalt: paramsBlock(params).toString('base64') };
}

export function unwrapPrivateKey(data: StoredKeyData, password: string): KeyObject {
  const params = readParams(strictBase64(data.kdfSalt, 'kdfSalt'), PRIVATE_KEY_ITERATIONS);
  const sealed = strictBase64(data.encryptedPrivateKey, 'encryptedPrivateKey');
  if (sealed.length <= 28) throw new OfflineCryptoError('MALFORMED', 'encryptedPrivateKey is too short');
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), params.salt, params.iterations, 32, 'sha256');
  const pkcs8 = gcmOpen(key, sealed);
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

function linkSecrets(password: string, params: Pbkdf2Params): { wrapKey: Buffer; verifier: Buffer } {
  const master = pbkdf2Sync(Buffer.from(password, 'utf8'), params.salt, params.iterations, 32, 'sha256');
  const empty = Buffer.alloc(0);
  return {
    wrapKey: Buffer.from(hkdfSync('sha256', master, empty, 'sealdrop/link-wrap/v1', 32)),
    verifier: Buffer.from(hkdfSync('sha256', master, empty, 'sealdrop/link-verifier/v1', 32)),
  };
}

const fileKeyAad = (fileId: string): Buffer => Buffer.from(`sealdrop/link-file-key/v1:${fileId}`, 'utf8');

export interface NodeLinkProtection {
  kdfParams: string;
  verifier: string;
  reencryptedKeys: Record<string, string>;
}

export function protectLinkKeys(password: string, keys: ReadonlyMap<string, Buffer>, iterations = LINK_ITERATIONS): NodeLinkProtection {
  const params = { iterations, salt: randomBytes(16) };
  const block = paramsBlock(params);
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
  return linkSecrets(password, readParams(strictBase64(kdfParams, 'link KDF parameters'), undefined)).verifier.toString('base64');
}

export function openLinkKeys(password: string, reencryptedKeys: Record<string, string>): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const linkKeys = new Map<string, Buffer>();
  for (const [fileId, value] of Object.entries(reencryptedKeys)) {
    const [wrappedText, sealedText, extra] = value.split(':');
    if (wrappedText === undefined || sealedText === undefined || extra !== undefined) {
      throw new OfflineCryptoError('MALFORMED', "link key is not 'wrappedKey:ivPlusCiphertext'");
    }
    let linkKey = linkKeys.get(wrappedText);
    if (!linkKey) {
      const wrapped = strictBase64(wrappedText, 'link wrapped key');
      if (wrapped.length !== 21 + 12 + 32 + 16) throw new OfflineCryptoError('MALFORMED', 'link wrapped key length');
      const block = wrapped.subarray(0, 21);
      const { wrapKey } = linkSecrets(password, readParams(block, undefined));
      linkKey = gcmOpen(wrapKey, wrapped.subarray(21), block);
      if (!linkKey) throw new OfflineCryptoError('WRONG_PASSWORD', 'link password does not open its keys');
      linkKeys.set(wrappedText, linkKey);
    }
    const sealed = strictBase64(sealedText, 'link file key');
    if (sealed.length !== 12 + 32 + 16) throw new OfflineCryptoError('MALFORMED', 'link file key length');
    const raw = gcmOpen(linkKey, sealed, fileKeyAad(fileId));
    if (!raw) throw new OfflineCryptoError('INTEGRITY', 'link file key failed authentication');
    out.set(fileId, raw);
  }
  return out;
}
