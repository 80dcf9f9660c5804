// Checks of the per-file values that come with an upload (multipart fields or tus metadata),
// shared by both transports so a file is judged the same way whichever way it came.
import { hasBase64Shape } from '../base64.ts';
import { sanitizeFileName, sanitizeRelativePath } from './file-names.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_KEY_LENGTH = 8192;

export interface FileFields {
  rawName: string;
  rawPath: string | undefined;
  encryptedKey: string | undefined;
  encryptionIv: string | undefined;
}

/** `name` is the sanitised name when there is one (the raw name otherwise), for the result's `filename`. */
export type CheckedFields =
  | { ok: true; name: string; path: string; encryptedKey: string; encryptionIv: string }
  | { ok: false; name: string; reason: string };

export function isFileHash(value: string | undefined): value is string {
  return value !== undefined && SHA256_HEX.test(value);
}

function isBase64(value: string | undefined): value is string {
  return value !== undefined && value.length > 0 && value.length <= MAX_KEY_LENGTH && hasBase64Shape(value);
}

export function checkFileFields(fields: FileFields): CheckedFields {
  const name = sanitizeFileName(fields.rawName);
  const path = sanitizeRelativePath(fields.rawPath);
  const shownName = name.ok ? name.value : fields.rawName;
  if (!name.ok) return { ok: false, name: shownName, reason: name.reason };
  if (!path.ok) return { ok: false, name: shownName, reason: path.reason };
  if (!isBase64(fields.encryptedKey)) return { ok: false, name: shownName, reason: 'Missing or invalid encrypted key' };
  if (!isBase64(fields.encryptionIv)) return { ok: false, name: shownName, reason: 'Missing or invalid encryption IV' };
  return { ok: true, name: name.value, path: path.value, encryptedKey: fields.encryptedKey, encryptionIv: fields.encryptionIv };
}
