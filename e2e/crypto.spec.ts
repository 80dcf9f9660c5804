/**
 * The crypto worker pool in real headless Chromium, built by Vite as in production: vectors pass
 * between the node:crypto implementation and the browser in both directions, a multi-hundred-MiB
 * file is encrypted and decrypted by the pool with results identical to node:crypto, ranges of
 * ciphertext (a resuming upload) are reproduced exactly, and tampering is rejected with a typed
 * error that survives the worker boundary. File bytes reach the page only through setInputFiles
 * (a path on disk), never through the automation channel.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, open, truncate } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import {
  decryptBuffer,
  encryptBuffer,
  generateRsaKeyPair,
  linkVerifier,
  openLinkKeys,
  protectLinkKeys,
  unwrapPrivateKey,
  wrapFileKey,
  wrapPrivateKey,
  wrapPrivateKeyScheme2,
  newArgon2Block,
  formatFragment,
  HEADER_BYTES,
  TAG_BYTES,
  DEFAULT_RECORD_BYTES,
} from '../server/crypto/index.ts';
import { buildHarness } from './crypto-harness/build.ts';
import type { DecryptRunResult, EncryptRunResult, HarnessError } from './crypto-harness/harness-types.ts';
import { serveDirectory, type StaticServer } from './crypto-harness/static-server.ts';
import { encryptFileWithNode, ensurePlainFile, sha256OfFile, sha256OfNodeCiphertext } from './crypto-harness/test-files.ts';
import type { BrowserVectors, NodeVectors } from './crypto-harness/vector-types.ts';

const WORK_DIR = fileURLToPath(new URL('../.tmp/crypto-e2e/', import.meta.url));
const BIG_PLAIN = `${WORK_DIR}plain-256m.bin`;
const BIG_SEALED = `${WORK_DIR}sealed-256m.bin`;
const BIG_SIZE = 256 * 1024 * 1024 + 12_345; // not a multiple of the record size
const SMALL_PLAIN = `${WORK_DIR}plain-20m.bin`;
const SMALL_SIZE = 20 * 1024 * 1024 + 7;
const SMALL_SEALED = `${WORK_DIR}sealed-20m.bin`;
const TINY_PLAIN = `${WORK_DIR}plain-1m.bin`; // under the one-shot digest threshold

let server: StaticServer;
const bigKey = randomBytes(32);
const bigIv = randomBytes(12);
let bigSha256: string;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveDirectory(await buildHarness());
  await ensurePlainFile(BIG_PLAIN, BIG_SIZE, 1);
  await ensurePlainFile(SMALL_PLAIN, SMALL_SIZE, 2);
  await ensurePlainFile(TINY_PLAIN, 1024 * 1024 + 3, 3);
  bigSha256 = await sha256OfFile(BIG_PLAIN);
  await encryptFileWithNode(BIG_PLAIN, BIG_SEALED, bigKey, bigIv);
});

test.afterAll(async () => {
  await server?.close();
});

async function openHarness(page: Page): Promise<void> {
  await page.goto(server.url);
  await expect(page.locator('#status')).toHaveText(/ready \(\d+ workers\)/);
}

function ok<T extends object>(result: T | HarnessError): T {
  if ('error' in result) throw new Error(`harness error: ${JSON.stringify(result.error)}`);
  return result;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');

test('vectors pass between node:crypto and the browser pool in both directions', async ({ page }) => {
  await openHarness(page);
  const R = DEFAULT_RECORD_BYTES;
  const files = [0, 1, 63, 64, 65, 1000].map((size) => ({ size, recordSize: 64 })).concat([R, R + 1].map((size) => ({ size, recordSize: R })));
  const nodeFiles = files.map(({ size, recordSize }) => {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const plaintext = randomBytes(size);
    return { key: b64(key), iv: b64(iv), recordSize, plaintext: b64(plaintext), ciphertext: b64(encryptBuffer(key, iv, plaintext, recordSize)) };
  });
  const victim = nodeFiles[5]!;
  const sealed = Buffer.from(victim.ciphertext, 'base64');
  const flipped = Buffer.from(sealed);
  flipped[HEADER_BYTES + 70] = flipped[HEADER_BYTES + 70]! ^ 1;
  const recordBytes = 64 + TAG_BYTES;
  const reordered = Buffer.concat([sealed.subarray(0, HEADER_BYTES), sealed.subarray(HEADER_BYTES + recordBytes, HEADER_BYTES + 2 * recordBytes), sealed.subarray(HEADER_BYTES, HEADER_BYTES + recordBytes), sealed.subarray(HEADER_BYTES + 2 * recordBytes)]);
  const tampered = [
    { kind: 'bit flip', bytes: flipped },
    { kind: 'truncated at a record boundary', bytes: sealed.subarray(0, HEADER_BYTES + 3 * recordBytes) },
    { kind: 'extended', bytes: Buffer.concat([sealed, Buffer.alloc(1)]) },
    { kind: 'records swapped', bytes: reordered },
  ].map(({ kind, bytes }) => ({ kind, key: victim.key, iv: victim.iv, plainSize: 1000, ciphertext: b64(bytes) }));

  const admin = generateRsaKeyPair();
  const fileKey = randomBytes(32);
  const linkKeys = new Map([['7', randomBytes(32)], ['8', randomBytes(32)]]);
  const linkProtection = protectLinkKeys('link pass 2024', linkKeys);
  const accountKdfParams = newArgon2Block();
  const input: NodeVectors = {
    files: nodeFiles,
    tampered,
    toEncrypt: [0, 1, 64, 65, 500].map((size) => ({ plaintext: b64(randomBytes(size)), recordSize: 64 })).concat([{ plaintext: b64(randomBytes(R + 5)), recordSize: R }]),
    privateKey: { ...wrapPrivateKeyScheme2(admin.privateKey, 'login pässword', accountKdfParams), password: 'login pässword', wrappedFileKey: wrapFileKey(admin.publicKeySpki, fileKey), fileKey: b64(fileKey) },
    privateKeyScheme1: wrapPrivateKey(admin.privateKey, 'login pässword'),
    // The worked example of docs/format.md ("KDF scheme 2").
    account: { password: 'correct horse battery staple', kdfParams: 'AgABAAAAAAADAQABAgMEBQYHCAkKCwwNDg8=', authSecret: Buffer.from('9d56a42ccf8c21ab4ea6489cc7eca8cb4ef4efb4f13c92baf24c6f4252a1e502', 'hex').toString('base64') },
    link: { password: 'link pass 2024', fileKeys: Object.fromEntries([...linkKeys].map(([id, k]) => [id, b64(k)])), fragment: formatFragment(linkKeys), ...linkProtection },
    linkScheme1: { password: 'old link pass', reencryptedKeys: protectLinkKeys('old link pass', linkKeys, { scheme: 1 }).reencryptedKeys },
    newKeyPairPassword: 'new key pair password',
    newKeyPairKdfParams: newArgon2Block(),
  };

  const output = (await page.evaluate((vectors) => window.cryptoHarness.runVectors(vectors), input)) as BrowserVectors;

  // node -> browser
  expect(output.decrypted).toEqual(nodeFiles.map((f) => f.plaintext));
  for (const { kind, error } of output.tamperedErrors) {
    expect(error, kind).toEqual({ isCryptoError: false, code: 'INTEGRITY', name: 'DownloadError' });
  }
  expect(output.privateKey.unwrappedFileKey).toBe(b64(fileKey));
  expect(output.privateKey.unwrappedWithScheme1).toBe(b64(fileKey));
  expect(output.authSecret).toBe(input.account.authSecret);
  expect(output.privateKey.wrongPasswordError).toEqual({ isCryptoError: true, code: 'WRONG_PASSWORD', name: 'CryptoError' });
  expect(output.privateKey.wrongKeyError).toEqual({ isCryptoError: true, code: 'WRONG_KEY', name: 'CryptoError' });
  expect(output.link.fromFragment).toEqual(input.link.fileKeys);
  expect(output.link.fromPassword).toEqual(input.link.fileKeys);
  expect(output.link.fromScheme1Password).toEqual(input.link.fileKeys);
  expect(output.link.verifierForNodeLink).toBe(linkProtection.verifier);
  expect(output.link.wrongPasswordError).toEqual({ isCryptoError: true, code: 'WRONG_PASSWORD', name: 'CryptoError' });

  // browser -> node
  for (const vector of output.encrypted) {
    const plain = decryptBuffer(Buffer.from(vector.key, 'base64'), Buffer.from(vector.iv, 'base64'), Buffer.from(vector.ciphertext, 'base64'));
    expect(plain.toString('base64')).toBe(vector.plaintext);
  }
  expect(output.encrypted.map((v) => v.plaintext)).toEqual(input.toEncrypt.map((v) => v.plaintext));
  expect(output.generatedKeyPair.kdfSalt).toBe(input.newKeyPairKdfParams);
  const generatedPrivate = unwrapPrivateKey(output.generatedKeyPair, 'new key pair password');
  expect(generatedPrivate.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
  expect(output.link.browserFragment).toBe(input.link.fragment);
  const opened = openLinkKeys('link pass 2024', output.link.browserProtection.reencryptedKeys);
  expect(Object.fromEntries([...opened].map(([id, k]) => [id, b64(k)]))).toEqual(input.link.fileKeys);
  expect(linkVerifier('link pass 2024', output.link.browserProtection.kdfParams)).toBe(output.link.browserProtection.verifier);
  expect(Buffer.from(output.link.browserProtection.kdfParams, 'base64')[0]).toBe(2);
});

test('the pool encrypts a 256 MiB file exactly as node:crypto does, and decrypts it back', async ({ page }) => {
  await openHarness(page);
  await page.setInputFiles('#files', BIG_PLAIN);
  const result = ok(
    (await page.evaluate(() => window.cryptoHarness.encryptFiles({ hashCiphertext: true, roundTrip: true, exportKeys: true }))) as EncryptRunResult | HarnessError,
  );
  const [file] = result.files;
  expect(file!.size).toBe(BIG_SIZE);
  expect(file!.sha256).toBe(bigSha256);
  expect(file!.roundTripSha256).toBe(bigSha256);
  const nodeCiphertextSha = await sha256OfNodeCiphertext(BIG_PLAIN, Buffer.from(file!.key!, 'base64'), Buffer.from(file!.iv, 'base64'));
  expect(file!.ciphertextSha256).toBe(nodeCiphertextSha);
  test.info().annotations.push({ type: 'throughput', description: `encrypt+hash+verify ${(BIG_SIZE / 1e6 / result.seconds).toFixed(0)} MB/s` });
});

test("the download's decrypting stream turns node:crypto's ciphertext of that file into the original bytes", async ({ page }) => {
  await openHarness(page);
  await page.setInputFiles('#files', BIG_SEALED);
  const result = ok(
    (await page.evaluate(([key, iv, size]) => window.cryptoHarness.decryptFile(key, iv, { hashPlaintext: true, plainSize: size }), [b64(bigKey), b64(bigIv), BIG_SIZE] as const)) as DecryptRunResult | HarnessError,
  );
  expect(result.plainBytes).toBe(BIG_SIZE);
  expect(result.plaintextSha256).toBe(bigSha256);
});

test('several files at once (streamed and one-shot paths): each hash and ciphertext matches node', async ({ page }) => {
  await openHarness(page);
  await page.setInputFiles('#files', [SMALL_PLAIN, TINY_PLAIN, SMALL_PLAIN]);
  const result = ok((await page.evaluate(() => window.cryptoHarness.encryptFiles({ hashCiphertext: true, exportKeys: true }))) as EncryptRunResult | HarnessError);
  const expected = [SMALL_PLAIN, TINY_PLAIN, SMALL_PLAIN];
  for (const [i, file] of result.files.entries()) {
    expect(file.sha256).toBe(await sha256OfFile(expected[i]!));
    expect(file.ciphertextSha256).toBe(await sha256OfNodeCiphertext(expected[i]!, Buffer.from(file.key!, 'base64'), Buffer.from(file.iv, 'base64')));
  }
  expect(new Set(result.files.map((f) => f.key)).size).toBe(3);
});

test('ciphertext of any byte range, in any order (a resuming upload), equals the same range from node', async ({ page }) => {
  await openHarness(page);
  await page.setInputFiles('#files', SMALL_PLAIN);
  const ranges: [number, number][] = [
    [0, 5_000_000],
    [3_333_333, 3_333_334 + 4 * 1024 * 1024],
    [11, 13],
    [20 * 1024 * 1024 - 100, 20 * 1024 * 1024 + 7 + 12 + 81 * 16],
    [HEADER_BYTES + 40 * (DEFAULT_RECORD_BYTES + TAG_BYTES), HEADER_BYTES + 41 * (DEFAULT_RECORD_BYTES + TAG_BYTES)],
  ];
  const result = ok((await page.evaluate((r) => window.cryptoHarness.readRanges(r), ranges)) as Awaited<ReturnType<Window['cryptoHarness']['readRanges']>>);
  const key = Buffer.from(result.key, 'base64');
  const iv = Buffer.from(result.iv, 'base64');
  for (const range of result.ranges) {
    expect(range.sha256, `range ${range.start}-${range.end}`).toBe(await sha256OfNodeCiphertext(SMALL_PLAIN, key, iv, [range.start, range.end]));
  }
});

test('a tampered or truncated download fails with DownloadError INTEGRITY, the key having crossed from the pool as a download gets it', async ({ page }) => {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  await encryptFileWithNode(SMALL_PLAIN, SMALL_SEALED, key, iv);
  const flipped = `${WORK_DIR}sealed-flipped.bin`;
  await copyFile(SMALL_SEALED, flipped);
  const handle = await open(flipped, 'r+');
  const byte = Buffer.alloc(1);
  await handle.read(byte, 0, 1, 10_000_000);
  byte[0] = byte[0]! ^ 0x20;
  await handle.write(byte, 0, 1, 10_000_000);
  await handle.close();
  const cut = `${WORK_DIR}sealed-truncated.bin`;
  await copyFile(SMALL_SEALED, cut);
  await truncate(cut, HEADER_BYTES + 40 * (DEFAULT_RECORD_BYTES + TAG_BYTES));

  await openHarness(page);
  for (const path of [flipped, cut]) {
    await page.setInputFiles('#files', path);
    const result = await page.evaluate(([k, v, size]) => window.cryptoHarness.decryptFile(k, v, { hashPlaintext: false, plainSize: size }), [b64(key), b64(iv), SMALL_SIZE] as const);
    expect(result, path).toEqual({ error: expect.objectContaining({ isCryptoError: false, code: 'INTEGRITY', name: 'DownloadError' }) });
  }
  await page.setInputFiles('#files', SMALL_SEALED);
  const good = ok((await page.evaluate(([k, v, size]) => window.cryptoHarness.decryptFile(k, v, { hashPlaintext: true, plainSize: size }), [b64(key), b64(iv), SMALL_SIZE] as const)) as DecryptRunResult | HarnessError);
  expect(good.plaintextSha256).toBe(createHash('sha256').update(await (await import('node:fs/promises')).readFile(SMALL_PLAIN)).digest('hex'));
});
