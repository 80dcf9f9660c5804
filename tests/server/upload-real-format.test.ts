// Real encrypted files (the record format of docs/format.md, made with the node:crypto
// implementation) through both transports: the server checks their exact sizes, and what it
// stores decrypts with the admin's private key to bytes identical to the originals, with the
// recorded hash matching.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptBuffer, generateRsaKeyPair, unwrapFileKey } from '../../server/crypto/index.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, MultipartBody, postMultipart, sealForUpload, tusCreate, tusPatch, uploadPath } from './upload-helpers.ts';

let server: TestServer;
const admin = generateRsaKeyPair();

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const seal = (plain: Buffer) => sealForUpload(plain, admin.publicKeySpki);

async function decryptStored(blobKey: string, encryptedKey: string, iv: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await server.app.blobs.get(blobKey)) chunks.push(chunk as Buffer);
  const fileKey = unwrapFileKey(admin.privateKey, encryptedKey);
  return decryptBuffer(fileKey, Buffer.from(iv, 'base64'), Buffer.concat(chunks));
}

describe('real encrypted files', () => {
  it('arrive intact through the multipart request (sizes derived from the ciphertext)', async () => {
    const folder = await createUploadFolder(server);
    const files = [seal(Buffer.alloc(0)), seal(randomBytes(262_144)), seal(randomBytes(700_001))];
    const body = new MultipartBody().files(
      files.map((f, i) => ({ name: `f${i}.bin`, data: f.sealed, encryptedKey: f.encryptedKey, iv: f.iv, hash: f.hash })),
    );
    const response = await postMultipart(server.client(), uploadPath(folder), body);
    expect(response.status).toBe(200);
    expect(response.body.successful_files.map((f: { size: number }) => f.size)).toEqual([0, 262_144, 700_001]);
    const records = await server.app.repos.files.listForFolder(folder.id);
    for (const [i, record] of records.entries()) {
      expect(record.fileHash).toBe(files[i]!.hash);
      const plain = await decryptStored(record.blobKey, record.encryptedKey, record.encryptionIv);
      expect(plain.equals(files[i]!.plain)).toBe(true);
      expect(createHash('sha256').update(plain).digest('hex')).toBe(record.fileHash);
    }
  });

  it('arrive intact through tus, sent in several PATCHes', async () => {
    const folder = await createUploadFolder(server);
    const file = seal(randomBytes(1_000_000));
    const client = server.client();
    const created = await tusCreate(client, folder, file.sealed.length, {
      filename: 'data.bin',
      plainSize: file.plain.length,
      encryptedKey: file.encryptedKey,
      iv: file.iv,
    });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    // Cuts that fall inside records, as a dropped connection would leave them.
    const cuts = [0, 100_003, 555_555, file.sealed.length];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const patched = await tusPatch(client, location, cuts[i]!, file.sealed.subarray(cuts[i], cuts[i + 1]));
      expect(patched.status).toBe(204);
    }
    const done = await client.post(uploadPath(folder, '/complete'), { uploads: [{ upload_id: id, file_hash: file.hash }] });
    expect(done.body.successful_files).toHaveLength(1);
    const [record] = await server.app.repos.files.listForFolder(folder.id);
    const plain = await decryptStored(record!.blobKey, record!.encryptedKey, record!.encryptionIv);
    expect(plain.equals(file.plain)).toBe(true);
    expect(record!.fileHash).toBe(file.hash);
  });
});
