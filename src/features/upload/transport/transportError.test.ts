// Which failures the upload waits out and sends again, and which end a file at once.
import { describe, expect, it } from 'vitest';
import { isRetryable, TransportError } from './transportError.ts';

describe('isRetryable', () => {
  it.each([
    ['no answer', TransportError.network(), true],
    ['a 503', TransportError.http(503, 'Service Unavailable', ''), true],
    ['a tus offset conflict (409 in plain text)', TransportError.http(409, 'Conflict', 'Upload-Offset does not match'), true],
    ['a 409 with a code that names no lasting refusal', TransportError.http(409, 'Conflict', '{"code":"SOMETHING_ELSE"}'), true],
    ['a changed team folder key (409 FOLDER_KEY_CHANGED, multipart or tus)', TransportError.http(409, 'Conflict', '{"detail":"The folder\'s key changed","code":"FOLDER_KEY_CHANGED"}'), false],
    ['a full disk (507)', TransportError.http(507, 'Insufficient Storage', '{}'), false],
    ['a folder limit (413)', TransportError.http(413, 'Payload Too Large', '{}'), false],
    ['a stopped upload', TransportError.aborted(), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});
