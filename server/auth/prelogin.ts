// The pre-login answer (POST /api/auth/prelogin, docs/api.md): the parameter block a client
// derives the account's authentication secret with. A name with no account, or with an account
// not yet upgraded, gets a block of the same shape (scheme 3, bound to the lower-cased name, as
// accounts' blocks are) and the default cost whose salt is
// HMAC-SHA256(server secret, "sealdrop/prelogin/v1:" + lower-cased name): believable, the same on
// every call and in every process of a deployment (the secret is in the database, made by a
// migration), so the answer does not tell which names exist. The secret is no key to anything: a
// copy of the database that holds it also holds the list of names.
import { createHmac } from 'node:crypto';
import { argon2Block, NODE_ARGON2_DEFAULT_COST, normaliseAccountName } from '../crypto/index.ts';

const LABEL = 'sealdrop/prelogin/v1:';
const SALT_LENGTH = 16;

export function stableStandInParams(serverSecret: string, typedUsername: string): string {
  const salt = createHmac('sha256', serverSecret).update(LABEL + typedUsername.toLowerCase()).digest().subarray(0, SALT_LENGTH);
  return argon2Block({ ...NODE_ARGON2_DEFAULT_COST, salt, boundName: normaliseAccountName(typedUsername) }).toString('base64');
}

/** `kdfParams`: the account's block (users.kdfParamsOf); undefined or null gets the stand-in. */
export function preloginParams(kdfParams: string | null | undefined, typedUsername: string, serverSecret: string): string {
  // Computed for every name, so that a known name's answer does not come back sooner.
  const standIn = stableStandInParams(serverSecret, typedUsername);
  return kdfParams ?? standIn;
}
