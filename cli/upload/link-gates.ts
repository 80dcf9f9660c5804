// Opening an upload link as the upload page does (docs/api.md, "Gates"): the link's status, then
// its password and e-mail gates, each passed through the verify routes so the server sets the
// grant cookie the tus and complete routes require. Answers come from options (scripts) or are
// asked for (a terminal, or lines on standard input). A refused gate ends the run with exit status 3.
import type { z } from 'zod';
import { messageResponse, verifiedResponse } from '../../contract/common.ts';
import { uploadPublicKeyResponse } from '../../contract/team-folders.ts';
import { uploadLinkStatusResponse, type UploadLinkStatus } from '../../contract/upload.ts';
import type { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, CliUsageError, GateRefusedError, LinkUnusableError } from '../shared/errors.ts';
import type { Prompts } from '../shared/prompts.ts';
import { withRetries } from '../shared/retry.ts';

export interface GateAnswers {
  password?: string;
  email?: string;
  code?: string;
  /** Only ask the server to mail a code, then stop (a script runs again later with --code). */
  requestCodeOnly: boolean;
}

/** Server codes that mean "this gate said no". */
const REFUSALS = new Set(['INCORRECT_LINK_PASSWORD', 'EMAIL_NOT_ALLOWED', 'INVALID_CODE', 'RATE_LIMITED', 'LINK_PASSWORD_REQUIRED', 'EMAIL_VERIFICATION_REQUIRED']);

function refusal(error: unknown): never {
  if (error instanceof ApiRequestError) {
    if (error.code === 'LINK_INVALID') throw new LinkUnusableError('LINK_INVALID', 'The upload link is invalid or has expired.');
    if (REFUSALS.has(error.code)) {
      const wait = error.retryAfterSeconds === null ? '' : ` (try again in ${Math.ceil(error.retryAfterSeconds / 60)} min)`;
      throw new GateRefusedError(error.code, `${error.detail}${wait}`);
    }
    if (error.code === 'VALIDATION_FAILED') throw new CliUsageError(error.detail);
  }
  throw error;
}

export async function linkStatus(session: ApiSession, linkToken: string, signal: AbortSignal): Promise<UploadLinkStatus> {
  return withRetries(() => session.json(uploadLinkStatusResponse, { method: 'GET', path: `/api/upload/${linkToken}/status`, signal }), { signal }).catch(refusal);
}

/** The key uploads seal file keys to: the owner's, or a team folder's current epoch key with its number. */
export interface RecipientKey {
  publicKeySpki: string;
  /** null: a personal folder (the owner's account key). */
  keyEpoch: number | null;
}

export async function recipientKey(session: ApiSession, linkToken: string, signal: AbortSignal): Promise<RecipientKey> {
  try {
    const answer = await withRetries(() => session.json(uploadPublicKeyResponse, { method: 'GET', path: `/api/upload/${linkToken}/public-key`, signal }), { signal });
    return { publicKeySpki: answer.public_key_spki, keyEpoch: answer.key_epoch };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'PUBLIC_KEY_MISSING') {
      throw new LinkUnusableError('PUBLIC_KEY_MISSING', 'The folder\'s owner has no encryption key yet: nothing can be uploaded to this link until they create one.');
    }
    return refusal(error);
  }
}

/**
 * Passes the gates the status names. Resolves false when only a code was requested (requestCodeOnly).
 * `note` prints a line for the person running the command (stderr).
 */
export async function passGates(
  session: ApiSession,
  linkToken: string,
  status: UploadLinkStatus,
  answers: GateAnswers,
  prompts: Prompts,
  note: (line: string) => void,
  signal: AbortSignal,
): Promise<boolean> {
  const post = async <S extends z.ZodType>(schema: S, path: string, json: unknown): Promise<z.output<S>> => {
    try {
      return await withRetries(() => session.json(schema, { method: 'POST', path: `/api/upload/${linkToken}${path}`, json, signal }), { signal });
    } catch (error) {
      return refusal(error);
    }
  };

  if (status.requires_password) {
    const password = answers.password ?? (await prompts.password('Upload link password: '));
    if (password === '') throw new CliUsageError('The link needs its password (--password, --password-stdin, or typed when asked).');
    await post(verifiedResponse, '/verify-password', { link_password: password });
  }
  if (!status.requires_email) return true;
  const email = answers.email ?? (await prompts.line('Your e-mail address (a code is sent to it): ', 'the e-mail address'));
  if (email === '') throw new CliUsageError('The link needs an e-mail address (--email, or typed when asked).');
  let code = answers.code;
  if (code === undefined) {
    const sent = await post(messageResponse, '/request-code', { uploader_email: email });
    note(sent.message);
    if (answers.requestCodeOnly) return false;
    code = await prompts.line('The 6-digit code from the e-mail: ', 'the verification code');
  }
  await post(verifiedResponse, '/verify-code', { uploader_email: email, verification_code: code });
  return true;
}
