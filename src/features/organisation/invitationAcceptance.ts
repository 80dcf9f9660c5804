// The invitee's registration, as zero-knowledge as every sign-in: a fresh parameter block bound to
// the chosen name (scheme 3, the default cost), the authentication secret derived under it in a
// worker, and only that secret sent with the token. The server then signs the new account in.
import { newAccountKdfParams } from '../../../crypto/index.ts';
import type { CryptoPool } from '../../../workers/index.ts';
import type { AcceptInvitationBody } from '../../../contract/organisation.ts';

export async function acceptanceBody(pool: Pick<CryptoPool, 'deriveAuthSecret'>, token: string, username: string, password: string): Promise<AcceptInvitationBody> {
  const kdfParams = newAccountKdfParams(username);
  const authSecret = await pool.deriveAuthSecret(password, kdfParams, username);
  return { token, username, kdf_params: kdfParams, auth_secret: authSecret };
}

const INVITATION_REFUSALS: ReadonlySet<string> = new Set(['INVITATION_NOT_FOUND', 'INVITATION_EXPIRED', 'INVITATION_USED', 'INVITATION_REVOKED']);

/** Whether the server refused the invitation itself (no retry helps), rather than failing to answer. */
export function isInvitationRefusal(serverCode: string | null): boolean {
  return serverCode !== null && INVITATION_REFUSALS.has(serverCode);
}
