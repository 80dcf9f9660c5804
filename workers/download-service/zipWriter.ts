/**
 * A streaming ZIP writer for stored (uncompressed) entries: byte for byte the archive client-zip's
 * `makeZip` writes for the same names, dates and bytes (so client-zip's `predictLength` gives its
 * exact length, and zipWriter.test.ts compares the two archives), except for how the CRC-32 is
 * computed: here by hash-wasm's WebAssembly CRC-32.
 *
 * Why not client-zip's `makeZip` itself (hand-written code instead of the library): client-zip
 * 2.5 computes CRC-32 in JavaScript one byte at a time and offers no way to supply it (the CRC of
 * decrypted bytes cannot be known in advance either); on the service worker's one thread that CRC
 * held ZIP downloads well below the single-file rate (figures: docs/download.md, "Measurements
 * behind the code"). The format part is small and fixed; client-zip stays the reference for it.
 *
 * Per entry: local header (version 4.5, flags: data descriptor + UTF-8 name, CRC and sizes zero),
 * name, data, data descriptor (CRC, then sizes of 8 bytes once the entry reaches 0xffffffff bytes,
 * else 4). Then the central directory (a ZIP64 extra field where the size or the offset needs it),
 * a ZIP64 end record and locator when any entry or offset needs ZIP64, and the end record.
 */
import { createCRC32, type IHasher } from 'hash-wasm';

export interface ZipWriterEntry {
  readonly name: string;
  readonly lastModified: Date;
  readonly input: ReadableStream<Uint8Array>;
}

const LIMIT_32 = 0xffffffff;
const LIMIT_16 = 0xffff;
/** Version 4.5 (ZIP64); "made by" adds 3 (Unix) in the high byte so the file mode is read. */
const VERSION_NEEDED = 45;
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const FILE_MODE = 0o100664;
const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const encoder = new TextEncoder();

function record(length: number): [Uint8Array, DataView] {
  const bytes = new Uint8Array(length);
  return [bytes, new DataView(bytes.buffer)];
}

/** MS-DOS time and date (local time, 2-second resolution), as ZIP headers hold them. */
function setDosDateTime(view: DataView, at: number, date: Date): void {
  view.setUint16(at, (date.getSeconds() >> 1) | (date.getMinutes() << 5) | (date.getHours() << 11), true);
  view.setUint16(at + 2, date.getDate() | ((date.getMonth() + 1) << 5) | ((date.getFullYear() - 1980) << 9), true);
}

function localHeader(name: Uint8Array, date: Date): Uint8Array {
  const [bytes, view] = record(LOCAL_HEADER);
  view.setUint32(0, 0x04034b50, true);
  view.setUint16(4, VERSION_NEEDED, true);
  view.setUint16(6, FLAGS, true);
  setDosDateTime(view, 10, date);
  view.setUint16(26, name.length, true);
  return bytes;
}

function dataDescriptor(crc: number, size: number, zip64: boolean): Uint8Array {
  const [bytes, view] = record(zip64 ? 24 : 16);
  view.setUint32(0, 0x08074b50, true);
  view.setUint32(4, crc, true);
  if (zip64) {
    view.setBigUint64(8, BigInt(size), true);
    view.setBigUint64(16, BigInt(size), true);
  } else {
    view.setUint32(8, size, true);
    view.setUint32(12, size, true);
  }
  return bytes;
}

interface Written {
  readonly name: Uint8Array;
  readonly date: Date;
  readonly crc: number;
  readonly size: number;
  readonly offset: number;
}

/** The central directory record of one entry, its name, and its ZIP64 extra field if needed. */
function centralRecord(entry: Written): Uint8Array[] {
  const zip64Size = entry.size >= LIMIT_32;
  // 12: the offset only; 28: sizes and offset (client-zip's choice, which readers accept).
  const extraLength = (entry.offset >= LIMIT_32 ? 12 : 0) | (zip64Size ? 28 : 0);
  const [bytes, view] = record(CENTRAL_HEADER);
  view.setUint32(0, 0x02014b50, true);
  view.setUint16(4, VERSION_MADE_BY, true);
  view.setUint16(6, VERSION_NEEDED, true);
  view.setUint16(8, FLAGS, true);
  setDosDateTime(view, 12, entry.date);
  view.setUint32(16, entry.crc, true);
  view.setUint32(20, Math.min(entry.size, LIMIT_32), true);
  view.setUint32(24, Math.min(entry.size, LIMIT_32), true);
  view.setUint16(28, entry.name.length, true);
  view.setUint16(30, extraLength, true);
  view.setUint16(40, FILE_MODE, true);
  view.setUint32(42, Math.min(entry.offset, LIMIT_32), true);
  if (!extraLength) return [bytes, entry.name];
  const [extra, extraView] = record(extraLength);
  extraView.setUint16(0, 0x0001, true);
  extraView.setUint16(2, extraLength - 4, true);
  if (zip64Size) {
    extraView.setBigUint64(4, BigInt(entry.size), true);
    extraView.setBigUint64(12, BigInt(entry.size), true);
  }
  extraView.setBigUint64(extraLength - 8, BigInt(entry.offset), true);
  return [bytes, entry.name, extra];
}

function endRecords(count: number, centralOffset: number, centralSize: number, zip64: boolean): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (zip64) {
    const [bytes, view] = record(76);
    view.setUint32(0, 0x06064b50, true);
    view.setBigUint64(4, 44n, true);
    view.setUint16(12, VERSION_MADE_BY, true);
    view.setUint16(14, VERSION_NEEDED, true);
    view.setBigUint64(24, BigInt(count), true);
    view.setBigUint64(32, BigInt(count), true);
    view.setBigUint64(40, BigInt(centralSize), true);
    view.setBigUint64(48, BigInt(centralOffset), true);
    // The locator: where the ZIP64 end record starts, on disk 0 of 1.
    view.setUint32(56, 0x07064b50, true);
    view.setBigUint64(64, BigInt(centralOffset + centralSize), true);
    view.setUint32(72, 1, true);
    out.push(bytes);
  }
  const [bytes, view] = record(22);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, Math.min(count, LIMIT_16), true);
  view.setUint16(10, Math.min(count, LIMIT_16), true);
  view.setUint32(12, Math.min(centralSize, LIMIT_32), true);
  view.setUint32(16, Math.min(centralOffset, LIMIT_32), true);
  out.push(bytes);
  return out;
}

class ZipWriter {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private hasher: IHasher | undefined;

  constructor(private readonly entries: AsyncIterator<ZipWriterEntry>) {}

  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    const central: Uint8Array[] = [];
    let offset = 0;
    let count = 0;
    let zip64 = false;
    for (;;) {
      const next = await this.entries.next();
      if (next.done) break;
      const entry = next.value;
      const name = encoder.encode(entry.name);
      yield localHeader(name, entry.lastModified);
      yield name;
      const hasher = (this.hasher ??= await createCRC32());
      hasher.init();
      let size = 0;
      this.reader = entry.input.getReader();
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        hasher.update(value);
        size += value.length;
        yield value;
      }
      this.reader = undefined;
      const crc = new DataView(hasher.digest('binary').buffer).getUint32(0, false);
      const zip64Size = size >= LIMIT_32;
      yield dataDescriptor(crc, size, zip64Size);
      central.push(...centralRecord({ name, date: entry.lastModified, crc, size, offset }));
      offset += LOCAL_HEADER + name.length + size + (zip64Size ? 24 : 16);
      count += 1;
      zip64 ||= zip64Size;
    }
    let centralSize = 0;
    for (const bytes of central) {
      centralSize += bytes.length;
      yield bytes;
    }
    yield* endRecords(count, offset, centralSize, zip64 || offset >= LIMIT_32);
  }

  /** The reader of the archive went away: stop the file being read and the source of entries. */
  async cancel(reason: unknown): Promise<void> {
    await this.reader?.cancel(reason).catch(() => undefined);
    await this.entries.throw?.(reason).catch(() => undefined);
  }
}

/**
 * The ZIP of `entries`, read one after the other as the archive reaches them (the next entry is
 * asked for only when the previous one has been read to its end). One chunk per pull: the file's
 * own chunks pass through unchanged, without copies.
 */
export function writeZip(entries: AsyncIterable<ZipWriterEntry>): ReadableStream<Uint8Array> {
  const writer = new ZipWriter(entries[Symbol.asyncIterator]());
  const chunks = writer.chunks();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => writer.cancel(reason),
  });
}
