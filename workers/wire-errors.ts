/**
 * How an error crosses a message boundary, whichever it is: a Comlink call into a crypto worker,
 * a result that carries per-file failures (encryptSmallFiles), a hashing worker's port, and a
 * download's status port (service worker or direct-to-disk worker -> page). Structured clone, and
 * Comlink's own 'throw' handler, keep only an Error's name and message, which would lose the class
 * and the fixed `code` callers branch on (style rule 6). Here a typed error (CryptoError,
 * DownloadError) is written as name + code + message and rebuilt as the same class with the same
 * code on the other side; any other error arrives as an Error with its name and message.
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import {
  CryptoError,
  isCryptoErrorCode,
  isTeamManifestInvalidReason,
  TeamManifestInvalidError,
  type CryptoErrorCode,
  type TeamManifestInvalidReason,
  type UnlistedMember,
} from '../crypto/index.ts';
import { DownloadError, isDownloadErrorCode, type DownloadErrorCode, type DownloadFailureFacts } from './download-service/downloadErrors.ts';
import { readDownloadFailureFacts } from '../contract/download-failure.ts';

export interface WireCryptoError {
  readonly name: 'CryptoError';
  readonly code: CryptoErrorCode;
  readonly message: string;
}

export interface WireDownloadError {
  readonly name: 'DownloadError';
  readonly code: DownloadErrorCode;
  /** What the page words the failure with (src/lib/userTexts.ts); workers send no user texts. */
  readonly facts: DownloadFailureFacts;
  readonly message: string;
}

export interface WireTeamManifestError {
  readonly name: 'TeamManifestInvalidError';
  readonly code: 'TEAM_MANIFEST_INVALID';
  readonly reason: TeamManifestInvalidReason;
  readonly seq: number | null;
  readonly unlisted: readonly UnlistedMember[];
  readonly message: string;
}

export interface WireUntypedError {
  readonly name: string;
  readonly code?: undefined;
  readonly message: string;
}

export type WireError = WireCryptoError | WireDownloadError | WireTeamManifestError | WireUntypedError;

export function toWireError(error: CryptoError): WireCryptoError;
export function toWireError(error: DownloadError): WireDownloadError;
export function toWireError(error: TeamManifestInvalidError): WireTeamManifestError;
export function toWireError(error: unknown): WireError;
export function toWireError(error: unknown): WireError {
  if (error instanceof CryptoError) return { name: 'CryptoError', code: error.code, message: error.message };
  if (error instanceof DownloadError) return { name: 'DownloadError', code: error.code, facts: error.facts, message: error.message };
  if (error instanceof TeamManifestInvalidError) {
    return { name: 'TeamManifestInvalidError', code: error.code, reason: error.reason, seq: error.seq, unlisted: error.unlisted.map(({ userId, username }) => ({ userId, username })), message: error.message };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * The error again, on the receiving side. A code this side does not know (a message from another
 * version of the app) becomes the class's catch-all code, never an untyped error.
 */
export function fromWireError(wire: WireCryptoError): CryptoError;
export function fromWireError(wire: WireDownloadError): DownloadError;
export function fromWireError(wire: WireTeamManifestError): TeamManifestInvalidError;
export function fromWireError(wire: WireError): Error;
export function fromWireError(wire: WireError): Error {
  if (wire.name === 'CryptoError') return new CryptoError(isCryptoErrorCode(wire.code) ? wire.code : 'WORKER_FAILED', wire.message);
  if (wire.name === 'DownloadError') {
    const known = isDownloadErrorCode(wire.code);
    const facts = readDownloadFailureFacts((wire as Partial<WireDownloadError>).facts);
    return new DownloadError(known ? wire.code : 'FAILED', known ? facts : { detail: wire.message });
  }
  if (wire.name === 'TeamManifestInvalidError') {
    // Another version's reason this side does not know is still a refusal: the broadest one.
    const team = wire as Partial<WireTeamManifestError>;
    const unlisted = Array.isArray(team.unlisted)
      ? team.unlisted.filter((m) => typeof m?.userId === 'number' && typeof m.username === 'string').map(({ userId, username }) => ({ userId, username }))
      : [];
    return new TeamManifestInvalidError(isTeamManifestInvalidReason(team.reason) ? team.reason : 'malformed', wire.message, {
      seq: typeof team.seq === 'number' ? team.seq : null,
      unlisted,
    });
  }
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}

/** Comlink's wire value of a thrown error, as its 'throw' handler writes it. */
interface ThrownValue {
  readonly isError: true;
  readonly value: unknown;
}

/** Set where a typed error was written by this module, so no other thrown value is mistaken for one. */
const TYPED = 'sealdrop:typed-error';

function isTypedThrow(serialized: unknown): serialized is ThrownValue & { readonly value: WireError } {
  return typeof serialized === 'object' && serialized !== null && (serialized as Record<string, unknown>)[TYPED] === true;
}

let installed = false;

/**
 * Makes Comlink carry typed errors as above (untyped ones keep Comlink's own handling, stack
 * included). Both ends need it: the worker entry installs it, and so does the pool.
 */
export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const base = transferHandlers.get('throw') as TransferHandler<unknown, unknown>;
  const handler: TransferHandler<unknown, unknown> = {
    canHandle: (value: unknown): value is unknown => base.canHandle(value),
    serialize(thrown: unknown) {
      const error = (thrown as ThrownValue).value;
      if (error instanceof CryptoError || error instanceof DownloadError || error instanceof TeamManifestInvalidError) {
        return [{ isError: true, value: toWireError(error), [TYPED]: true }, []];
      }
      return base.serialize(thrown);
    },
    deserialize(serialized: unknown) {
      if (isTypedThrow(serialized)) throw fromWireError(serialized.value);
      return base.deserialize(serialized);
    },
  };
  transferHandlers.set('throw', handler);
}
