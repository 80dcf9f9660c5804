import { describe, expect, it } from 'vitest';
import { rowMapper } from './row-mapping.ts';

interface Row {
  id: number;
  folder_id: number;
  is_2fa_enabled: number;
  file_size: number;
  finished_at: number | null;
  metadata: string;
  secret_key: string | null;
}

interface Out {
  id: number;
  folderId: number;
  is2faEnabled: boolean;
  fileSize: number;
  finishedAt: number | null;
  metadata: Record<string, string>;
}

const shape = {
  numbers: ['file_size', 'finished_at'],
  flags: ['is_2fa_enabled'],
  decode: { metadata: (json: string) => JSON.parse(json) as Record<string, string> },
  omit: ['secret_key'],
} as const;

describe('rowMapper', () => {
  it('renames to camelCase, reads numbers, flags and decoded columns, and leaves omitted ones out', () => {
    const map = rowMapper<Row, Out>()(shape);
    // PostgreSQL's int8 may arrive as a string: the mapping reads it as a number.
    const row = { id: 7, folder_id: 3, is_2fa_enabled: 1, file_size: '4096' as unknown as number, finished_at: null, metadata: '{"a":"b"}', secret_key: 'wrapped' };
    const record = map(row);
    expect(record).toEqual({ id: 7, folderId: 3, is2faEnabled: true, fileSize: 4096, finishedAt: null, metadata: { a: 'b' } });
    expect(Object.keys(record)).not.toContain('secretKey');
    expect(map({ ...row, is_2fa_enabled: 0 }).is2faEnabled).toBe(false);
  });

  it('refuses at compile time a mapping whose record is not exactly the promised one', () => {
    // A column the record does not name (a secret added to the table later) must be omitted.
    // @ts-expect-error secret_key would leak into the record
    rowMapper<Row, Out>()({ numbers: ['file_size', 'finished_at'], flags: ['is_2fa_enabled'], decode: shape.decode });
    // A flag left as a number does not make the record.
    // @ts-expect-error is_2fa_enabled stays a number
    rowMapper<Row, Out>()({ numbers: ['file_size', 'finished_at'], decode: shape.decode, omit: ['secret_key'] });
    // No runtime assertion: `npm run typecheck` fails when an expected error above stops occurring.
  });
});
