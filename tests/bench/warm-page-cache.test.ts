import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { warmPageCache } from '../../e2e/crypto-harness/test-files.ts';

describe("bench:crypto's page cache warm-up", () => {
  const dir = mkdtempSync(join(tmpdir(), 'warm-page-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every file to its end, over several of its chunks, and an empty one', () => {
    const large = join(dir, 'large.bin');
    const empty = join(dir, 'empty.bin');
    writeFileSync(large, Buffer.alloc(9 * 1024 * 1024 + 5, 1));
    writeFileSync(empty, Buffer.alloc(0));
    expect(() => warmPageCache([large, empty])).not.toThrow();
  });

  it('fails on an input that is missing instead of measuring a read that never happened', () => {
    expect(() => warmPageCache([join(dir, 'missing.bin')])).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
