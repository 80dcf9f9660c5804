// The server's clock. Normally Date.now. For end-to-end tests only, E2E_CLOCK_OFFSET_FILE names a
// file holding milliseconds to add (written by e2e/support/serverClock.ts), so a spec can let a
// link expire without waiting in real time. A missing file means no offset; a file that holds
// anything but an integer fails loudly rather than run at a wrong time.
import { readFileSync } from 'node:fs';

export class ClockOffsetError extends Error {
  override readonly name = 'ClockOffsetError';
  readonly code = 'CLOCK_OFFSET_INVALID';
}

function offsetIn(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  if (!/^-?\d+$/.test(text)) throw new ClockOffsetError(`${file} must hold an integer number of milliseconds`);
  return Number(text);
}

export function serverClock(offsetFile: string | undefined): () => number {
  if (!offsetFile) return Date.now;
  return () => Date.now() + offsetIn(offsetFile);
}
