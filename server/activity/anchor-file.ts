// The anchor file (ACTIVITY_ANCHOR_FILE): one head checkpoint per line, appended after each
// committed activity entry, outside the database, so that the database alone cannot hide that its
// newest entries were removed. Opened with O_APPEND: every line goes to the end of the file, whatever
// another process on the same file wrote meanwhile, and nothing here ever rewrites a line. A line is
// written per entry rather than in batches: entries come from people's actions (at most a few per
// request), a line is ~170 bytes, and a batch would leave its last entries unattested until it is
// written. Lines are not fsynced one by one; a crash may lose the last lines (fewer entries attested),
// never add one, since a line is written only after its entry was committed.
import { createReadStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface AnchorWriter {
  /** Appends one checkpoint token as a line; the lines of one process keep their order. */
  append(token: string): Promise<void>;
  close(): Promise<void>;
}

export async function openAnchorWriter(file: string): Promise<AnchorWriter> {
  await mkdir(path.dirname(file), { recursive: true });
  const handle: FileHandle = await open(file, 'a', 0o600);
  let tail: Promise<unknown> = Promise.resolve();
  return {
    append(token) {
      const write = tail.then(() => handle.write(`${token}\n`));
      tail = write.catch(() => undefined);
      return write.then(() => undefined);
    },
    async close() {
      await tail;
      await handle.close();
    },
  };
}

export interface TextLine {
  number: number;
  text: string;
}

/** The lines of a file, one at a time (the file may be large: it grows with every entry). */
export async function* linesOf(file: string): AsyncGenerator<TextLine> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    yield { number, text };
  }
}
