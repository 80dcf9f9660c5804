// Builds exports for the recover command's tests with the node:crypto implementation: a key pair,
// its password-wrapped backup file, encrypted blobs and a manifest, as a directory or a ZIP (yazl,
// ZIP64 for some entries). Every export is laid out as docs/format.md "Exports" describes.
import { createHash, type KeyObject, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ExportManifest, ExportManifestFile } from '../../server/export/manifest.ts';
import {
  DEFAULT_RECORD_BYTES,
  EncryptRecords,
  encryptBuffer,
  generateRsaKeyPair,
  newArgon2Block,
  newBoundArgon2Block,
  wrapFileKey,
  wrapPrivateKey,
  wrapPrivateKeyScheme2,
} from '../../server/crypto/index.ts';

export interface KeyOwner {
  publicKeySpki: string;
  privateKey: KeyObject;
}

export function newKeyOwner(): KeyOwner {
  return generateRsaKeyPair();
}

/**
 * The JSON the app downloads (src/features/keys/backupFile.ts), for this key under this password:
 * wrapped under scheme 3 (argon2id, an account block bound to the username) as the app writes it
 * now, under scheme 2 (unbound) as accounts not yet moved have it, or under scheme 1 (PBKDF2) as
 * backups made before issue 27 are.
 */
export function backupFileText(owner: KeyOwner, password: string, username = 'admin', scheme: 1 | 2 | 3 = 3): string {
  const keyData =
    scheme === 1
      ? wrapPrivateKey(owner.privateKey, password)
      : wrapPrivateKeyScheme2(owner.privateKey, password, scheme === 3 ? newBoundArgon2Block(username) : newArgon2Block());
  return `${JSON.stringify(
    {
      description: 'Sealdrop private key backup (test).',
      username,
      encryptedPrivateKey: keyData.encryptedPrivateKey,
      kdfSalt: keyData.kdfSalt,
      backupDate: new Date().toISOString(),
    },
    null,
    2,
  )}\n`;
}

export interface PlainFile {
  relativePath: string;
  name: string;
  bytes: Buffer;
}


export interface BuiltExport {
  /** Loose on purpose: tests alter it to make damaged exports. */
  manifest: Omit<ExportManifest, 'format' | 'format_version'> & { format: string; format_version: number };
  /** blob path ("files/<id>.sdrp") -> ciphertext */
  blobs: Map<string, Buffer>;
}

/** A tree with a nested directory, unicode names, an empty file, a file of exactly two records and one of several records plus a tail. */
export function sampleFiles(): PlainFile[] {
  return [
    { relativePath: '.', name: 'report.pdf', bytes: randomBytes(1000) },
    { relativePath: 'docs/2024', name: 'Übersicht – März ✓.txt', bytes: Buffer.from('Grüße aus Köln\n'.repeat(50), 'utf8') },
    { relativePath: 'docs/2024', name: 'empty.txt', bytes: Buffer.alloc(0) },
    { relativePath: 'docs', name: 'two-records.bin', bytes: randomBytes(2 * DEFAULT_RECORD_BYTES) },
    { relativePath: '写真/😀 holiday', name: 'naïve café.bin', bytes: randomBytes(5 * DEFAULT_RECORD_BYTES + 1234) },
  ];
}

async function encryptStreaming(key: Buffer, iv: Buffer, plain: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  // Uneven chunks, so record boundaries fall inside pieces as they do when reading a real file.
  const chunks = function* () {
    for (let offset = 0; offset < plain.length; offset += 100_003) yield plain.subarray(offset, offset + 100_003);
  };
  const encrypt = new EncryptRecords(key, iv);
  encrypt.on('data', (chunk: Buffer) => parts.push(chunk));
  await pipeline(Readable.from(chunks()), encrypt);
  return Buffer.concat(parts);
}

export async function buildExport(owner: KeyOwner, files: PlainFile[], firstId = 11): Promise<BuiltExport> {
  const blobs = new Map<string, Buffer>();
  const entries: ExportManifestFile[] = [];
  for (const [index, file] of files.entries()) {
    const id = firstId + index;
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const sealed = file.bytes.length > DEFAULT_RECORD_BYTES ? await encryptStreaming(key, iv, file.bytes) : encryptBuffer(key, iv, file.bytes);
    const blob = `files/${id}.sdrp`;
    blobs.set(blob, sealed);
    entries.push({
      id,
      blob,
      relative_path: file.relativePath,
      name: file.name,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      encrypted_key: wrapFileKey(owner.publicKeySpki, key),
      iv: iv.toString('base64'),
      upload_time: '2026-11-20T08:15:00.000Z',
    });
  }
  return {
    manifest: {
      format: 'sealdrop-export',
      format_version: 1,
      exported_at: '2026-11-22T12:00:00.000Z',
      folder: { id: 3, title: 'Tax documents 2025' },
      files: entries,
    },
    blobs,
  };
}

export async function writeDirectoryExport(dir: string, built: BuiltExport): Promise<string> {
  await mkdir(path.join(dir, 'files'), { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(built.manifest, null, 2));
  for (const [blob, bytes] of built.blobs) await writeFile(path.join(dir, blob), bytes);
  return dir;
}

/** The same layout as a ZIP; blobs are stored (not deflated), every second one in ZIP64 form. */
export async function writeZipExport(file: string, built: BuiltExport): Promise<string> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(built.manifest, null, 2)), 'manifest.json', { compress: true });
  let index = 0;
  for (const [blob, bytes] of built.blobs) {
    zip.addReadStream(Readable.from([bytes]), blob, { compress: false, forceZip64Format: index++ % 2 === 0, size: bytes.length });
  }
  zip.end({ forceZip64Format: true, comment: '' });
  await pipeline(zip.outputStream, createWriteStream(file));
  return file;
}
