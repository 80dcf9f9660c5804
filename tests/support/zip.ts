/**
 * Reading the ZIPs the app writes, for tests, end-to-end specs and benchmarks (node only), with
 * yauzl: an independent reader, so a ZIP our code wrote is checked by code we did not write.
 * ZIP64 included. yauzl checks sizes but not CRC-32, so every entry's CRC-32 is checked here.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { fromBufferPromise, openPromise, type Entry, type ZipFile } from 'yauzl';

export interface ZipEntry {
  readonly name: string;
  /** 0: stored; 8: deflated (yauzl inflates it). */
  readonly compressionMethod: number;
  readonly data: Buffer;
}

export interface ZipEntryDigest {
  readonly name: string;
  readonly compressionMethod: number;
  readonly size: number;
  readonly sha256: string;
}

const OPTIONS = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true } as const;

async function eachEntry(zip: ZipFile, visit: (entry: Entry, data: Readable) => Promise<void>): Promise<void> {
  try {
    for await (const entry of zip.eachEntry()) await visit(entry, await zip.openReadStreamPromise(entry));
  } finally {
    zip.close();
  }
}

function checkCrc(entry: Entry, crc: number): void {
  if (crc >>> 0 !== entry.crc32) throw new Error(`${entry.fileName}: CRC-32 differs from the central directory's`);
}

/** Every entry of a ZIP held in memory, in directory order, with its bytes. */
export async function readZip(bytes: Buffer): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  await eachEntry(await fromBufferPromise(bytes, OPTIONS), async (entry, stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    checkCrc(entry, crc32(data));
    entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, data });
  });
  return entries;
}

/** The SHA-256 of every entry of a ZIP on disk, streamed: for archives of many GiB. */
export async function hashZipEntries(path: string): Promise<ZipEntryDigest[]> {
  const digests: ZipEntryDigest[] = [];
  await eachEntry(await openPromise(path, OPTIONS), async (entry, stream) => {
    const hash = createHash('sha256');
    let crc = 0;
    for await (const chunk of stream) {
      hash.update(chunk as Buffer);
      crc = crc32(chunk as Buffer, crc);
    }
    checkCrc(entry, crc);
    digests.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, size: entry.uncompressedSize, sha256: hash.digest('hex') });
  });
  return digests;
}
