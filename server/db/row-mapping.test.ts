import { describe, expect, it } from 'vitest';
import { rowMapper, rowValues } from './row-mapping.ts';

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

describe('rowValues', () => {
  it('writes exactly the fields named, under their snake_case columns, and nothing else the record carries', () => {
    const record = { id: 7, folderId: 3, originalFilename: 'a.txt', fileSize: 0, uploadTime: null as number | null, secretKey: 'never' };
    const values = rowValues(record, ['folderId', 'originalFilename', 'fileSize', 'uploadTime']);
    expect(values).toEqual({ folder_id: 3, original_filename: 'a.txt', file_size: 0, upload_time: null });
    expect(Object.keys(values)).not.toContain('id');
    expect(Object.keys(values)).not.toContain('secret_key');
    const typed: { folder_id: number; original_filename: string; file_size: number; upload_time: number | null } = values;
    expect(typed.folder_id).toBe(3);
  });

  it('keeps a digit with the word before it, so such columns are named by hand', () => {
    expect(rowValues({ is2faEnabled: true }, ['is2faEnabled'])).toEqual({ is2fa_enabled: true });
  });
});
