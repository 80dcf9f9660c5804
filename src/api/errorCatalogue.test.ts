// The spec's error catalogue (section 8, and the drop messages of section 5), string by string:
// each text, or the fixed part of each template, stands in the shipped code (src, workers, contract,
// and server for the details the page shows as they come), or the mapping module says in
// UNPLACED_CATALOGUE_TEXTS why this design cannot reach it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UNPLACED_CATALOGUE_TEXTS } from './errors.ts';

const CATALOGUE = [
  // HTTP errors
  'Forbidden', 'CSRF validation failed', 'Session expired. Please login again.', 'Incorrect username or password.',
  'Incorrect password provided.', 'Unauthorized or session possibly expired.', 'Too many requests. Please try again later.',
  'Request validation failed. Check inputs.', 'Server Error', 'Network Error: Could not connect to the server.',
  'Unexpected Error: ', 'An unknown error occurred.', 'An unexpected error occurred.',
  // Crypto and download
  'Invalid encryption key format received from server.', 'Invalid encryption IV format received from server.',
  'Decryption failed: Incorrect password or corrupted data.', 'Invalid encrypted data: too short to contain IV.',
  'Missing encryption data for ', 'Download failed: ', 'Incomplete file data received from server.', 'Decryption key for "',
  'Failed to download ', 'No files could be decrypted.', 'Could not decrypt ', 'No files selected for ZIP download.',
  // Keys
  'Encrypted key data not found on server. Please generate or restore keys in your profile.', 'Failed to unlock key: ',
  'Missing password or key data.', 'Key not loaded.', 'Key generation process failed: ',
  'Password verification failed. Please enter your current login password.', 'Failed to read file content.',
  "Failed to parse backup file. Ensure it's a valid JSON file.", 'Error reading the backup file.', 'Restore failed: ',
  'Not authenticated. Please log in.', 'Profile unavailable. Please try logging in again.',
  // Upload page
  'Token missing from URL.', 'Link invalid/expired.', 'Failed to load encryption key: ', 'Recipient public key is missing or not configured.',
  'Encryption key missing', 'Hashing failed', 'Encryption failed: ', 'Processing failed for ',
  'All files failed during client-side processing. Please check files or try again.',
  'Some files failed client-side processing. Only successfully processed files will be uploaded.',
  'No files were successfully processed for upload.', 'Upload API call failed: ', 'Received empty response data from server.',
  'Upload failed on server', 'Some files failed to upload. Check file statuses.', 'Batch processed: ', 'Upload successful! All ',
  'Upload processed: ', 'Upload processed, but server did not confirm file outcomes for this batch.', 'Error sending code: ',
  'No new files are pending for upload.', 'An upload is already in progress.', 'No files to retry.',
  'No files have been successfully uploaded yet to generate a receipt.', 'An unexpected error occurred. Please refresh the page.',
  // Other
  'Failed to copy link to clipboard.', 'Failed to copy ', 'An error occurred while saving. Please check details.',
  'Failed to create link.', 'Failed to delete link.', 'See console for details.', 'Failed to delete any of the selected files.',
  // Section 5, upload page: drop messages
  'Files too large (max ', 'Other rejected files: ', 'File type must be ', 'File is larger than ', 'File is smaller than ', 'Too many files',
];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function shippedSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : shippedSources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const shipped = ['src', 'workers', 'crypto', 'contract', 'server'].flatMap((dir) => shippedSources(join(ROOT, dir))).map((path) => readFileSync(path, 'utf8'));
const shippedCode = shipped.join('\n').replace(/UNPLACED_CATALOGUE_TEXTS[\s\S]*?\n\};/, '');

describe("the spec's error catalogue", () => {
  it.each(CATALOGUE)('%s: in the code, or said to be unreachable', (text) => {
    const placed = shippedCode.includes(text);
    const unplaced = Object.hasOwn(UNPLACED_CATALOGUE_TEXTS, text);
    expect(placed || unplaced, `'${text}' is neither in the code nor in UNPLACED_CATALOGUE_TEXTS`).toBe(true);
    expect(placed && unplaced, `'${text}' is in the code, so it is not unplaced`).toBe(false);
  });

  it('says why for every text it leaves out', () => {
    for (const [text, why] of Object.entries(UNPLACED_CATALOGUE_TEXTS)) {
      expect(CATALOGUE, text).toContain(text);
      expect(why.length, text).toBeGreaterThan(20);
    }
  });
});
