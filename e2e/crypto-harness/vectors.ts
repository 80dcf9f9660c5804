// The browser side of the vector exchange: everything goes through the real pool and its workers,
// and errors are checked to arrive on this thread with their class and code. Ciphertext is
// decrypted by the service worker's decrypting stream (decryptLikeADownload), the path users run.
import { CryptoError, decodeBase64, encodeBase64, concatBytes } from '../../crypto/index.ts';
import { decryptLikeADownload } from '../../workers/download-service/testing/decryptLikeADownload.ts';
import type { CryptoPool, FileKeyHandle } from '../../workers/index.ts';
import type { BrowserError, BrowserVectors, FileVector, NodeVectors } from './vector-types.ts';
import { importRawFileKey } from '../../workers/testing/rawFileKey.ts';
import { readCiphertext } from '../../workers/testing/sessionCiphertext.ts';

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return concatBytes(parts);
    parts.push(value);
  }
}

function single(bytes: Uint8Array): ReadableStream<Uint8Array> {
  // Deliver in uneven pieces, as a network would.
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const length = 1 + ((offset * 7919) % 70_000);
      controller.enqueue(bytes.slice(offset, offset + length));
      offset += length;
    },
  });
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

async function caught(action: () => Promise<unknown>): Promise<BrowserError | null> {
  try {
    await action();
    return null;
  } catch (error) {
    return {
      isCryptoError: error instanceof CryptoError,
      code: codeOf(error),
      name: error instanceof Error ? error.name : typeof error,
    };
  }
}

async function rawKeys(pool: CryptoPool, keys: Map<string, FileKeyHandle>): Promise<Record<string, string>> {
  const fragment = await pool.formatLinkFragment([...keys].map(([fileId, key]) => ({ fileId, key })));
  return Object.fromEntries(fragment.split(',').map((pair) => pair.split(':') as [string, string]));
}

async function importKey(pool: CryptoPool, raw: string): Promise<FileKeyHandle> {
  return importRawFileKey(pool, decodeBase64(raw));
}

export async function runVectors(pool: CryptoPool, input: NodeVectors): Promise<BrowserVectors> {
  const decrypted: string[] = [];
  for (const vector of input.files) {
    const key = await importKey(pool, vector.key);
    const plaintext = await decryptLikeADownload(pool, key, vector.iv, decodeBase64(vector.plaintext).length, single(decodeBase64(vector.ciphertext)));
    decrypted.push(encodeBase64(await drain(plaintext)));
  }

  const tamperedErrors = [];
  for (const vector of input.tampered) {
    const key = await importKey(pool, vector.key);
    const decrypting = () => decryptLikeADownload(pool, key, vector.iv, vector.plainSize, single(decodeBase64(vector.ciphertext)));
    tamperedErrors.push({ kind: vector.kind, error: await caught(async () => drain(await decrypting())) });
  }

  const encrypted: FileVector[] = [];
  for (const { plaintext, recordSize } of input.toEncrypt) {
    const session = await pool.openEncryption(new Blob([decodeBase64(plaintext)]), { recordSize });
    const ciphertext = await readCiphertext(session, 0, session.encryptedLength);
    const [, key] = (await pool.formatLinkFragment([{ fileId: 'f', key: session.key }])).split(':') as [string, string];
    encrypted.push({ key, iv: session.iv, recordSize, plaintext, ciphertext: encodeBase64(ciphertext) });
    await session.close();
  }

  const privateKey = await pool.unlockPrivateKey(input.privateKey, input.privateKey.password);
  const fileKey = await pool.unwrapFileKey(privateKey, input.privateKey.wrappedFileKey);
  const unwrappedFileKey = (await rawKeys(pool, new Map([['f', fileKey]])))['f']!;
  const scheme1Private = await pool.unlockPrivateKey(input.privateKeyScheme1, input.privateKey.password);
  const unwrappedWithScheme1 = (await rawKeys(pool, new Map([['f', await pool.unwrapFileKey(scheme1Private, input.privateKey.wrappedFileKey)]])))['f']!;
  const wrongPasswordError = await caught(() => pool.unlockPrivateKey(input.privateKey, `${input.privateKey.password}!`));
  const authSecret = await pool.deriveAuthSecret(input.account.password, input.account.kdfParams, 'alice');
  const generated = await pool.generateWrappedKeyPair(input.newKeyPairPassword, input.newKeyPairKdfParams);
  const otherPrivate = await pool.unlockPrivateKey(generated, input.newKeyPairPassword);
  const wrongKeyError = await caught(() => pool.unwrapFileKey(otherPrivate, input.privateKey.wrappedFileKey));

  const fromFragmentKeys = await pool.parseLinkFragment(`#${input.link.fragment}`);
  const fromPasswordKeys = await pool.openLinkKeys(input.link.password, input.link.reencryptedKeys);
  const fromScheme1PasswordKeys = await pool.openLinkKeys(input.linkScheme1.password, input.linkScheme1.reencryptedKeys);
  const fileKeys = [...fromFragmentKeys].map(([fileId, key]) => ({ fileId, key }));
  const browserProtection = await pool.protectLinkKeys(input.link.password, fileKeys);

  return {
    decrypted,
    tamperedErrors,
    encrypted,
    privateKey: { unwrappedFileKey, unwrappedWithScheme1, wrongPasswordError, wrongKeyError },
    authSecret,
    generatedKeyPair: { publicKeySpki: generated.publicKeySpki, encryptedPrivateKey: generated.encryptedPrivateKey, kdfSalt: generated.kdfSalt },
    link: {
      fromFragment: await rawKeys(pool, fromFragmentKeys),
      fromPassword: await rawKeys(pool, fromPasswordKeys),
      fromScheme1Password: await rawKeys(pool, fromScheme1PasswordKeys),
      verifierForNodeLink: await pool.deriveLinkPasswordVerifier(input.link.password, input.link.kdfParams),
      wrongPasswordError: await caught(() => pool.openLinkKeys(`${input.link.password}x`, input.link.reencryptedKeys)),
      browserFragment: await pool.formatLinkFragment(fileKeys),
      browserProtection: {
        reencryptedKeys: browserProtection.reencryptedKeys,
        kdfParams: browserProtection.kdfParams,
        verifier: browserProtection.verifier,
      },
    },
  };
}
