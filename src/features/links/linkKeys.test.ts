// prepareDownloadLink on the real crypto core (in-process instead of in workers), checked against
// the independent node:crypto implementation: the fragment holds exactly the files' keys; a
// password link sends a verifier (not the password) and keys only that password opens; every
// unwrapped key is released.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatLinkFragment, importPrivateKeyPkcs8, protectLinkKeys, unwrapFileKey } from '../../../crypto/index.ts';
import { generateRsaKeyPair, linkVerifier, openLinkKeys, parseFragment, wrapFileKey } from '../../../server/crypto/keys.ts';
import type { FileKeyHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import type { FileKeyOpener } from '../team/index.ts';
import { prepareDownloadLink, readyLinkUrl, type LinkKeyCrypto, type LinkableFile } from './linkKeys.ts';

/** The pool's link operations over the crypto core, with handles into a map (like the workers' key store). */
function localCrypto(privateKey: CryptoKey) {
  const keys = new Map<string, CryptoKey>([['private-1', privateKey]]);
  let counter = 0;
  const released: string[] = [];
  const keyOf = (handle: { id: string }) => {
    const key = keys.get(handle.id);
    if (!key) throw new Error(`unknown handle ${handle.id}`);
    return key;
  };
  const privateHandle = { id: 'private-1', kind: 'private' } as PrivateKeyHandle;
  // The account key's path of the team feature's opener (a personal folder's files).
  const openKey: FileKeyOpener = async (file) => {
    const id = `file-${++counter}`;
    keys.set(id, await unwrapFileKey(file.encrypted_key, keyOf(privateHandle)));
    return { id, kind: 'file' } as FileKeyHandle;
  };
  const pool: LinkKeyCrypto = {
    async formatLinkFragment(files) {
      return formatLinkFragment(files.map((file) => ({ fileId: file.fileId, key: keyOf(file.key) })));
    },
    async protectLinkKeys(password, files) {
      return protectLinkKeys(password, files.map((file) => ({ fileId: file.fileId, key: keyOf(file.key) })));
    },
    async releaseKeys(handles) {
      for (const handle of handles) {
        released.push(handle.id);
        keys.delete(handle.id);
      }
    },
  };
  return { pool, released, openKey };
}

async function fixture(count: number) {
  const pair = generateRsaKeyPair();
  const pkcs8 = new Uint8Array(pair.privateKey.export({ type: 'pkcs8', format: 'der' }));
  const local = localCrypto(await importPrivateKeyPkcs8(pkcs8, false));
  const raw = new Map<string, Buffer>();
  const files: LinkableFile[] = [];
  for (let i = 0; i < count; i++) {
    const id = 100 + i;
    const key = randomBytes(32);
    raw.set(String(id), key);
    files.push({ id, original_filename: `file-${i}.bin`, encrypted_key: wrapFileKey(pair.publicKeySpki, key), key_epoch: null });
  }
  return { ...local, files, raw };
}

describe('prepareDownloadLink', () => {
  it('without a password puts every file key in the fragment and nothing secret in the request', async () => {
    const { pool, openKey, files, raw, released } = await fixture(11);
    const prepared = await prepareDownloadLink(pool, openKey, files, { password: null, expirationDate: '2030-01-23T08:30:00.000Z', maxDownloads: 2 });
    expect(prepared.request).toEqual({ file_ids: files.map((file) => file.id), password: null, expiration_date: '2030-01-23T08:30:00.000Z', max_downloads: 2 });
    expect('reencrypted_keys_json' in prepared.request).toBe(false);
    const parsed = parseFragment(prepared.fragment!);
    expect([...parsed.keys()]).toEqual(files.map((file) => String(file.id)));
    for (const [id, key] of parsed) expect(key.equals(raw.get(id)!)).toBe(true);
    expect(released).toHaveLength(11);
  });

  it('with a password sends a verifier and wrapped keys that only that password opens', async () => {
    const { pool, openKey, files, raw, released } = await fixture(3);
    const password = 'SonneWolke30-418';
    const prepared = await prepareDownloadLink(pool, openKey, files, { password, expirationDate: null, maxDownloads: null });
    expect(prepared.request.max_downloads).toBeNull();
    const body = JSON.stringify(prepared.request);
    expect(body).not.toContain(password);
    const wrapped = JSON.parse(prepared.request.reencrypted_keys_json!) as Record<string, string>;
    expect(Object.keys(wrapped)).toEqual(files.map((file) => String(file.id)));
    const opened = openLinkKeys(password, wrapped);
    for (const [id, key] of opened) expect(key.equals(raw.get(id)!)).toBe(true);
    expect(() => openLinkKeys('SonneWolke30-419', wrapped)).toThrow(/password/);
    // The verifier is what node derives from the password and the KDF block inside the wrapped key:
    // scheme 2 (argon2id, 26 bytes) for every new link.
    const block = Buffer.from(Object.values(wrapped)[0]!.split(':')[0]!, 'base64').subarray(0, 26);
    expect(block[0]).toBe(2);
    const kdfParams = block.toString('base64');
    expect(prepared.request.password).toBe(linkVerifier(password, kdfParams));
    // The fragment pins that block (and holds nothing else): the recipient refuses any other.
    expect(prepared.fragment).toBe(`kdf=${kdfParams.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`);
    expect(released).toHaveLength(3);
  });

  it('releases the keys it unwrapped when a later key fails', async () => {
    const { pool, openKey, files, released } = await fixture(2);
    const broken = [...files, { id: 999, original_filename: 'x', encrypted_key: randomBytes(256).toString('base64'), key_epoch: null }];
    await expect(prepareDownloadLink(pool, openKey, broken, { password: null, expirationDate: null, maxDownloads: null })).rejects.toThrow();
    expect(released).toHaveLength(2);
  });
});

describe('readyLinkUrl', () => {
  it('appends the keys as the fragment only for a link without a password', () => {
    const fragment = '12:a2V5' as Parameters<typeof readyLinkUrl>[1];
    expect(readyLinkUrl('https://x.example/download/tok', fragment)).toBe('https://x.example/download/tok#12:a2V5');
    expect(readyLinkUrl('https://x.example/download/tok', null)).toBe('https://x.example/download/tok');
  });
});
