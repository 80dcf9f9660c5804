// A status message as the page reads it: workers send a failure's code and facts, the page words
// them with the catalogue (src/lib/userTexts.ts), so tests of the workers check the text the user
// would read through the same mapping.
import { downloadErrorText } from '../../src/lib/userTexts.ts';
import { fromWireError, type WireDownloadError } from '../../workers/wire-errors.ts';
import type { StatusMessage } from '../../workers/download-service/protocol.ts';

export type WordedStatus =
  | Exclude<StatusMessage, { type: 'error' | 'file-failed' }>
  | { type: 'error'; code: string; text: string }
  | { type: 'file-failed'; name: string; code: string; text: string };

export function worded(message: StatusMessage): WordedStatus {
  if (message.type !== 'error' && message.type !== 'file-failed') return message;
  const failure = fromWireError(message.failure as WireDownloadError);
  const said = { code: failure.code, text: downloadErrorText(failure) };
  return message.type === 'error' ? { type: 'error', ...said } : { type: 'file-failed', name: message.name, ...said };
}
