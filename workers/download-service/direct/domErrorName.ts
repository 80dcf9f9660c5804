/**
 * The name of what the File System Access API threw (a DOMException: 'NotFoundError',
 * 'TypeMismatchError', 'QuotaExceededError' ...), which is how its failures are told apart; '' for
 * anything without a string name.
 */
export function domErrorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}
