// Checks what the browser wrote, without reading a multi-GiB file into memory: the SHA-256 of a
// saved file, and of each entry of a saved ZIP (found through its central directory, ZIP64 too;
// client-zip stores entries uncompressed, so each entry's bytes are a range of the file).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

export async function sha256OfRange(path: string, start = 0, length?: number): Promise<string> {
  const hash = createHash('sha256');
  if (length === 0) return hash.digest('hex');
  await pipeline(createReadStream(path, { start, ...(length !== undefined ? { end: start + length - 1 } : {}), highWaterMark: 4 * 1024 * 1024 }), hash);
  return hash.digest('hex');
}

export interface ZipEntryRange {
  readonly name: string;
  readonly method: number;
  readonly size: number;
  readonly dataStart: number;
}

export async function zipEntries(path: string): Promise<ZipEntryRange[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, position);
      return buffer;
    };
    const tailLength = Math.min(size, 22 + 0xffff + 20);
    const tail = await read(size - tailLength, tailLength);
    let eocd = -1;
    for (let at = tail.length - 22; at >= 0; at--) if (tail.readUInt32LE(at) === 0x06054b50) (eocd = at), (at = -1);
    if (eocd < 0) throw new Error('no end of central directory');
    let count = tail.readUInt16LE(eocd + 10);
    let directoryOffset = tail.readUInt32LE(eocd + 16);
    let directorySize = tail.readUInt32LE(eocd + 12);
    if (directoryOffset === 0xffffffff || count === 0xffff) {
      const record = Number(tail.readBigUInt64LE(eocd - 20 + 8));
      const zip64 = await read(record, 56);
      count = Number(zip64.readBigUInt64LE(32));
      directorySize = Number(zip64.readBigUInt64LE(40));
      directoryOffset = Number(zip64.readBigUInt64LE(48));
    }
    const directory = await read(directoryOffset, directorySize);
    const entries: ZipEntryRange[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      const method = directory.readUInt16LE(at + 10);
      let entrySize = directory.readUInt32LE(at + 24);
      let compressed = directory.readUInt32LE(at + 20);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      let localOffset = directory.readUInt32LE(at + 42);
      const name = directory.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      for (let extra = at + 46 + nameLength; extra < at + 46 + nameLength + extraLength; ) {
        const id = directory.readUInt16LE(extra);
        const length = directory.readUInt16LE(extra + 2);
        if (id === 0x0001) {
          let field = extra + 4;
          if (entrySize === 0xffffffff) (entrySize = Number(directory.readBigUInt64LE(field))), (field += 8);
          if (compressed === 0xffffffff) (compressed = Number(directory.readBigUInt64LE(field))), (field += 8);
          if (localOffset === 0xffffffff) localOffset = Number(directory.readBigUInt64LE(field));
        }
        extra += 4 + length;
      }
      const local = await read(localOffset, 30);
      if (local.readUInt32LE(0) !== 0x04034b50) throw new Error(`local header of ${name} is damaged`);
      entries.push({ name, method, size: entrySize, dataStart: localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28) });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}
