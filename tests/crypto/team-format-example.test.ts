/**
 * The worked example of docs/format.md ("Team folders", "Worked example: folder 12, version 1"),
 * read from the page itself: every value follows from the others as the page says, in both
 * implementations (crypto/ and server/crypto), so the example cannot drift from the format.
 */
import { constants, createHash, createPrivateKey, privateDecrypt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  exportRawFileKey,
  keyFingerprint,
  openEnvelope,
  RSA_ALGORITHM,
  unwrapFileKey,
  utf8,
  verifyTeamChain,
} from '../../crypto/index.ts';
import { openEnvelope as nodeOpenEnvelope, unwrapFileKey as nodeUnwrapFileKey, verifyChain } from '../../server/crypto/index.ts';

function exampleValues(): Record<string, string> {
  const page = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
  const start = page.indexOf('### Worked example: folder 12, version 1');
  expect(start).toBeGreaterThan(0);
  const block = /```\n([\s\S]*?)\n```/.exec(page.slice(start))![1]!;
  return Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(' = ')), line.slice(line.indexOf(' = ') + 3)]));
}

const v = exampleValues();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text, 'base64');

describe('the worked team-folder example of docs/format.md', () => {
  it('key hashes and the fingerprint are what the page says', async () => {
    expect(sha256(b64(v.alice_spki!))).toBe(v.alice_key_hash);
    expect(sha256(b64(v.bob_spki!))).toBe(v.bob_key_hash);
    expect(sha256(b64(v.epoch_1_spki!))).toBe(v.epoch_1_key_hash);
    const page = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
    expect(page).toContain(await keyFingerprint(new Uint8Array(b64(v.alice_spki!))));
  });

  it('the manifest, its hash and the start of the signed bytes', () => {
    const bytes = Buffer.from(v.manifest!, 'utf8');
    expect(sha256(bytes)).toBe(v.manifest_sha256);
    const signed = Buffer.concat([Buffer.from('sealdrop folder manifest v1', 'utf8'), Buffer.from([0]), bytes]);
    expect(signed.subarray(0, v.signed_bytes_start_hex!.length / 2).toString('hex')).toBe(v.signed_bytes_start_hex);
  });

  it('version 1 verifies for bob in crypto/ and in server/crypto', async () => {
    const manifest = Buffer.from(v.manifest!, 'utf8').toString('base64');
    const team = await verifyTeamChain({
      folderId: 12,
      versions: [{ manifest, signature: v.signature!, signerPublicKeySpki: v.alice_spki! }],
      viewerKeyHash: v.bob_key_hash!,
      seen: null,
    });
    expect(team.firstHash).toBe(v.manifest_sha256);
    expect(team.epochs[0]!.keyHash).toBe(v.epoch_1_key_hash);
    const node = verifyChain(12, [{ manifest, signature: v.signature!, signer_public_key_spki: v.alice_spki! }], { userId: 6, keyHash: v.bob_key_hash! });
    expect(node.headHash).toBe(v.manifest_sha256);
  });

  it('the envelope splits, opens and checks as the page says, in both implementations', async () => {
    const envelope = b64(v.envelope!);
    expect(envelope.subarray(0, 1).toString('hex')).toBe(v.envelope_version_hex);
    expect(envelope.subarray(1, 257).toString('hex')).toBe(v.envelope_wrapped_hex);
    expect(envelope.subarray(257, 269).toString('hex')).toBe(v.envelope_nonce_hex);
    expect(envelope.length - 269).toBe(Number(v.envelope_sealed_length));
    expect(v.aad).toBe(`sealdrop folder key v1:12:1:${v.bob_key_hash}`);
    const bob = createPrivateKey({ key: b64(v.bob_pkcs8!), format: 'der', type: 'pkcs8' });
    const k = privateDecrypt({ key: bob, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, envelope.subarray(1, 257));
    expect(k.toString('hex')).toBe(v.content_key_hex);

    const binding = { folderId: 12, epoch: 1, memberKeyHash: v.bob_key_hash!, epochKeyHash: v.epoch_1_key_hash! };
    const nodeEpochKey = nodeOpenEnvelope(bob, { ...binding, envelope: v.envelope! });
    expect(nodeUnwrapFileKey(nodeEpochKey, v.encrypted_key!).toString('hex')).toBe(v.file_key_hex);

    const bobKey = await crypto.subtle.importKey('pkcs8', new Uint8Array(b64(v.bob_pkcs8!)), RSA_ALGORITHM, false, ['decrypt']);
    const epochKey = await openEnvelope(v.envelope!, bobKey, binding);
    expect(Buffer.from(await exportRawFileKey(await unwrapFileKey(v.encrypted_key!, epochKey))).toString('hex')).toBe(v.file_key_hex);
    expect(Buffer.from(utf8(v.aad!)).length).toBe(28 + 64);
  });
});
