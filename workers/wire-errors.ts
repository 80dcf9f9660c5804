/**
 * Comlink serialises a thrown Error as name + message + stack only, which would lose the fixed
 * `code` that callers branch on. This wraps Comlink's own 'throw' handler so a CryptoError crosses
 * the worker boundary as name + code + message and is rebuilt as a CryptoError on the other side.
 * Installed by the worker entry and by the pool (both ends need the same handler).
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { CryptoError, isCryptoErrorCode } from '../crypto/index.ts';

interface WireCryptoError {
  isError: true;
  value: { name: 'CryptoError'; code: string; message: string };
}

function isWireCryptoError(value: unknown): value is WireCryptoError {
  if (typeof value !== 'object' || value === null) return false;
  const inner = (value as { value?: unknown }).value;
  return typeof inner === 'object' && inner !== null && (inner as { name?: unknown }).name === 'CryptoError';
}

let installed = false;

export function installCryptoErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const base = transferHandlers.get('throw') as TransferHandler<unknown, unknown>;
  const handler: TransferHandler<unknown, unknown> = {
    canHandle: (value: unknown): value is unknown => base.canHandle(value),
    serialize(thrown: unknown) {
      const error = (thrown as { value: unknown }).value;
      if (error instanceof CryptoError) {
        const wire: WireCryptoError = { isError: true, value: { name: 'CryptoError', code: error.code, message: error.message } };
        return [wire, []];
      }
      return base.serialize(thrown);
    },
    deserialize(serialized: unknown) {
      if (isWireCryptoError(serialized)) {
        const { code, message } = serialized.value;
        throw new CryptoError(isCryptoErrorCode(code) ? code : 'WORKER_FAILED', message);
      }
      return base.deserialize(serialized);
    },
  };
  transferHandlers.set('throw', handler);
}
