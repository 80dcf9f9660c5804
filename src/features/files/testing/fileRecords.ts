// File records shaped like GET /folders/{id}/files answers, for unit and component tests.
import type { FileRecord } from '../../../api/filesApi.ts';

let nextId = 1;

export function fileRecord(storedFilename: string, overrides: Partial<FileRecord> = {}): FileRecord {
  const id = overrides.id ?? nextId++;
  const segments = storedFilename.split('/');
  return {
    id,
    original_filename: segments[segments.length - 1]!,
    stored_filename: storedFilename,
    relative_path: segments.length > 2 ? segments.slice(1, -1).join('/') : '.',
    file_size: 2048,
    file_hash: id.toString(16).padStart(64, '0'),
    encrypted_key: 'a2V5',
    encryption_iv: 'AAAAAAAAAAAAAAAA',
    upload_time: '2030-01-20T08:30:00.000Z',
    last_downloaded_admin: null,
    key_epoch: null,
    ...overrides,
  };
}
