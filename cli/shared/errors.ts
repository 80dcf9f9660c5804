// Errors of the command-line clients, each with a fixed code, and the exit status each ends a run
// with (docs/operations.md, "Command-line upload and fetch"). Code branches on `code`, never on
// the message; the message is the line a person reads.
import { CodedError, codedError } from '../../contract/coded-error.ts';
import { CliUsageError } from '../../server/cli-errors.ts';

export { CliUsageError };

export const EXIT = {
  /** Every file stored (upload) or written (fetch). */
  ok: 0,
  /** Some files failed; each is named. */
  someFailed: 1,
  /** A usage error, or nothing could start: an unusable link, an unreadable file or directory. */
  unusable: 2,
  /** A gate refused: wrong link password, an address not allowed, a wrong or expired code, too many tries. */
  refused: 3,
  interrupted: 130,
} as const;

/** The server answered with an error body `{detail, code}` (or a status without one). */
export class ApiRequestError extends CodedError {
  constructor(
    readonly status: number,
    code: string,
    readonly detail: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(code, `${detail} (HTTP ${status}, ${code})`);
  }
}

/** No answer at all: refused connection, reset, DNS, a time limit. */
export class NetworkError extends codedError('NETWORK') {}

export type LinkUnusableCode = 'LINK_INVALID' | 'LINK_NOT_FOUND' | 'LINK_EXPIRED' | 'PUBLIC_KEY_MISSING' | 'UNEXPECTED_ANSWER' | 'KEYS_MALFORMED' | 'KDF_REFUSED';

/** The link cannot be used at all (exit status 2). */
export class LinkUnusableError extends CodedError<LinkUnusableCode> {}

/** A gate said no (exit status 3): `code` is the server's (INCORRECT_LINK_PASSWORD, INVALID_CODE, ...) or WRONG_PASSWORD. */
export class GateRefusedError extends CodedError {}

/**
 * The link is a plain http:// address of another machine (exit status 2): its password, codes and
 * keys would cross the network readable and changeable by anyone on the way. Given only with
 * --insecure-http.
 */
export class InsecureHttpError extends codedError('INSECURE_HTTP') {}

/** Another run is uploading to the same link from the same state directory. */
export class StateLockedError extends codedError('STATE_LOCKED') {}

export type TeamUnusableCode = 'TEAM_MANIFEST_INVALID' | 'NOT_A_TEAM_FOLDER' | 'FOLDER_NOT_FOUND' | 'KEYS_MISSING' | 'UNEXPECTED_ANSWER';

/** A team folder that cannot be fetched at all (exit status 2): its member list refused, no keys, not a member. */
export class TeamUnusableError extends CodedError<TeamUnusableCode> {}
