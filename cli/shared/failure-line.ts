// One line for an error that ends a command: the server's detail and code, or the error's own.
import { ApiRequestError, NetworkError } from './errors.ts';

export function describeFailure(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.detail} [${error.code}]`;
  if (error instanceof NetworkError) return `${error.message} [${error.code}] (gave up after retrying for about five minutes)`;
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return `${error.message} [${error.code}]`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
