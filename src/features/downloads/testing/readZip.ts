/**
 * A small ZIP reader for tests (node only): reads the central directory (ZIP64 included), checks
 * each entry's local header and CRC-32, and returns names and bytes. client-zip writes stored
 * (uncompressed) entries with data descriptors; deflated entries are inflated for completeness.
 */
import { crc32, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
  readonly zip64: boolean;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

function findEndOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new Error('not a ZIP file: no end of central directory record');
}

export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(zip);
  let count = zip.readUInt16LE(eocd + 10);
  let directoryOffset = zip.readUInt32LE(eocd + 16);
  if (directoryOffset === MAX32 || count === 0xffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== ZIP64_LOCATOR) throw new Error('ZIP64 locator missing');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(record) !== ZIP64_EOCD) throw new Error('ZIP64 end record missing');
    count = Number(zip.readBigUInt64LE(record + 32));
    directoryOffset = Number(zip.readBigUInt64LE(record + 48));
  }
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error(`central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    let compressedSize = zip.readUInt32LE(at + 20);
    let size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    let localOffset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    let zip64 = false;
    // ZIP64 extended information: only the fields that overflowed are present, in this order.
    for (let extra = at + 46 + nameLength; extra < at + 46 + nameLength + extraLength; ) {
      const id = zip.readUInt16LE(extra);
      const length = zip.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        zip64 = true;
        let field = extra + 4;
        if (size === MAX32) (size = Number(zip.readBigUInt64LE(field))), (field += 8);
        if (compressedSize === MAX32) (compressedSize = Number(zip.readBigUInt64LE(field))), (field += 8);
        if (localOffset === MAX32) localOffset = Number(zip.readBigUInt64LE(field));
      }
      extra += 4 + length;
    }
    if (zip.readUInt32LE(localOffset) !== LOCAL) throw new Error(`local header of ${name} is damaged`);
    const localNameLength = zip.readUInt16LE(localOffset + 26);
    const localExtraLength = zip.readUInt16LE(localOffset + 28);
    const dataStart = localOffset + 30 + localNameLength + localExtraLength;
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : undefined;
    if (!data) throw new Error(`${name}: unsupported compression method ${method}`);
    if (data.length !== size) throw new Error(`${name}: size ${data.length} differs from the directory's ${size}`);
    if (crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC-32 mismatch`);
    entries.push({ name, data, zip64 });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
