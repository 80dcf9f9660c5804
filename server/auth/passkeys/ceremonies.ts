// The WebAuthn ceremonies, on top of @simplewebauthn/server: it checks the signature, RP ID hash,
// flags (user verification required) and the attestation; around it we keep what it leaves to us
// and answer each refusal with a code of its own (the library throws plain errors whose text we
// do not read):
//   - the challenge: decoded from clientDataJSON and claimed before anything else (single use,
//     expiring, bound to the user or the browser it was issued to) -> CHALLENGE_INVALID / _USED;
//   - the origin the browser reported -> ORIGIN_MISMATCH;
//   - whose credential it is (the signed-in user's for a re-authentication; at a sign-in the user
//     handle must name the credential's account) -> NOT_FOUND / USER_MISMATCH;
//   - the signature counter, compared with the one stored after the library verified the
//     assertion (it is handed counter 0 so that it does not refuse first) -> COUNTER_REGRESSED.
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { PasskeyChallengePurpose, Repositories, StoredPasskey } from '../../db/repositories/index.ts';
import { sha256Hex } from '../tokens.ts';
import type { AuthenticationResponse, RegistrationResponse } from '../../../contract/passkeys.ts';
import { PasskeyError } from './errors.ts';
import type { RelyingParty } from './relying-party.ts';

export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
const CEREMONY_TIMEOUT_MS = 120_000;
// ES256 and RS256 cover platform authenticators and security keys; EdDSA too where offered.
const ALGORITHMS = [-8, -7, -257];

/** Who a challenge was issued to: the signed-in user, or (sign-in) the browser's csrftoken hash. */
export type ChallengeOwner = { userId: number } | { browserHash: string };

export interface CeremonyContext {
  readonly repos: Repositories;
  readonly now: number;
  readonly party: RelyingParty;
}

/** The user handle of an account's credentials: its id, not its name (names change). */
export function userHandle(userId: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`sealdrop-user:${userId}`);
}

async function issueChallenge(ctx: CeremonyContext, purpose: PasskeyChallengePurpose, owner: ChallengeOwner): Promise<string> {
  const challenge = isoBase64URL.fromBuffer(randomBytes(32));
  await ctx.repos.passkeyChallenges.deleteExpired(ctx.now);
  await ctx.repos.passkeyChallenges.save({
    challengeHash: sha256Hex(challenge),
    purpose,
    userId: 'userId' in owner ? owner.userId : null,
    browserHash: 'browserHash' in owner ? owner.browserHash : null,
    expiresAt: ctx.now + PASSKEY_CHALLENGE_TTL_MS,
  });
  return challenge;
}

function transports(passkey: StoredPasskey): AuthenticatorTransport[] {
  return passkey.transports as AuthenticatorTransport[];
}

export async function registrationOptions(ctx: CeremonyContext, user: { id: number; username: string }): Promise<Record<string, unknown>> {
  const existing = await ctx.repos.passkeys.listForUser(user.id);
  const challenge = await issueChallenge(ctx, 'register', { userId: user.id });
  const options = await generateRegistrationOptions({
    rpName: ctx.party.name,
    rpID: ctx.party.id,
    userName: user.username,
    userID: userHandle(user.id),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: transports(passkey) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  return options as unknown as Record<string, unknown>;
}

/** Options for a sign-in (no allowCredentials: the passkey names the account) or a re-authentication (the user's passkeys). */
export async function authenticationOptions(ctx: CeremonyContext, purpose: 'sign_in' | 'reauth', owner: ChallengeOwner): Promise<Record<string, unknown>> {
  const allowed = 'userId' in owner ? await ctx.repos.passkeys.listForUser(owner.userId) : [];
  const challenge = await issueChallenge(ctx, purpose, owner);
  const options = await generateAuthenticationOptions({
    rpID: ctx.party.id,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: allowed.map((passkey) => ({ id: passkey.credentialId, transports: transports(passkey) })),
  });
  return options as unknown as Record<string, unknown>;
}

/** Claims the challenge the browser signed and checks the origin it reported. Returns the challenge. */
async function claimCeremony(ctx: CeremonyContext, clientDataJSON: string, type: string, purpose: PasskeyChallengePurpose, owner: ChallengeOwner): Promise<string> {
  let clientData: { type: string; challenge: string; origin: string };
  try {
    clientData = decodeClientDataJSON(clientDataJSON);
  } catch {
    throw new PasskeyError('PASSKEY_VERIFICATION_FAILED');
  }
  if (typeof clientData.challenge !== 'string' || clientData.challenge === '') throw new PasskeyError('PASSKEY_CHALLENGE_INVALID');
  const claim = await ctx.repos.passkeyChallenges.claim(sha256Hex(clientData.challenge), purpose, owner, ctx.now);
  if (claim === 'used') throw new PasskeyError('PASSKEY_CHALLENGE_USED');
  if (claim === 'invalid') throw new PasskeyError('PASSKEY_CHALLENGE_INVALID');
  if (clientData.origin !== ctx.party.origin) throw new PasskeyError('PASSKEY_ORIGIN_MISMATCH');
  if (clientData.type !== type) throw new PasskeyError('PASSKEY_VERIFICATION_FAILED');
  return clientData.challenge;
}

/** What the library checks every answer against: the challenge we claimed, our origin and RP ID, a verified user. */
function expectations(ctx: CeremonyContext, challenge: string) {
  return { expectedChallenge: challenge, expectedOrigin: ctx.party.origin, expectedRPID: ctx.party.id, requireUserVerification: true };
}

export interface VerifiedRegistration {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export async function verifyRegistration(ctx: CeremonyContext, userId: number, response: RegistrationResponse): Promise<VerifiedRegistration> {
  const challenge = await claimCeremony(ctx, response.response.clientDataJSON, 'webauthn.create', 'register', { userId });
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      ...expectations(ctx, challenge),
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    throw new PasskeyError('PASSKEY_VERIFICATION_FAILED');
  }
  if (!verified.verified) throw new PasskeyError('PASSKEY_VERIFICATION_FAILED');
  const { credential } = verified.registrationInfo;
  const reported = response.response['transports'];
  return {
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: Array.isArray(reported) ? reported.filter((t): t is string => typeof t === 'string' && /^[a-z-]{1,20}$/.test(t)).slice(0, 6) : [],
  };
}

/** Why an assertion was refused, with the passkey's account when it is known (for its activity log). */
export class AssertionRefused extends Error {
  constructor(
    readonly error: PasskeyError,
    readonly userId: number | null,
  ) {
    super(error.code);
  }
}

/**
 * Verifies an assertion for a sign-in (`owner` the browser) or a re-authentication (`owner` the
 * signed-in user, whose passkey it must be), and records the use. Throws AssertionRefused.
 */
export async function verifyAssertion(
  ctx: CeremonyContext,
  purpose: 'sign_in' | 'reauth',
  owner: ChallengeOwner,
  response: AuthenticationResponse,
): Promise<StoredPasskey> {
  const signedInUser = 'userId' in owner ? owner.userId : null;
  const refuse = (code: ConstructorParameters<typeof PasskeyError>[0], userId: number | null = signedInUser) => new AssertionRefused(new PasskeyError(code), userId);
  let challenge: string;
  try {
    challenge = await claimCeremony(ctx, response.response.clientDataJSON, 'webauthn.get', purpose, owner);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    // Whose log it goes to: the credential it names (unverified, so only a refusal is recorded).
    throw new AssertionRefused(error, signedInUser ?? (await ctx.repos.passkeys.findByCredentialId(response.id))?.userId ?? null);
  }
  const passkey = await ctx.repos.passkeys.findByCredentialId(response.id);
  if (!passkey) throw refuse('PASSKEY_NOT_FOUND');
  if (signedInUser !== null && passkey.userId !== signedInUser) throw refuse('PASSKEY_USER_MISMATCH');
  if (signedInUser === null) {
    const handle = response.response.userHandle;
    if (handle === undefined || handle !== isoBase64URL.fromBuffer(userHandle(passkey.userId))) throw refuse('PASSKEY_USER_MISMATCH', passkey.userId);
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      ...expectations(ctx, challenge),
      // Counter 0: the library does not compare; we do, below, on the verified value.
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: 0, transports: transports(passkey) },
    });
  } catch {
    throw refuse('PASSKEY_VERIFICATION_FAILED', passkey.userId);
  }
  if (!verified.verified) throw refuse('PASSKEY_VERIFICATION_FAILED', passkey.userId);
  const { newCounter } = verified.authenticationInfo;
  // An authenticator that keeps a counter must report more than last time; one that keeps none reports 0 always.
  if ((newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter) throw refuse('PASSKEY_COUNTER_REGRESSED', passkey.userId);
  if (!(await ctx.repos.passkeys.recordUse(passkey.id, passkey.counter, newCounter, ctx.now))) throw refuse('PASSKEY_COUNTER_REGRESSED', passkey.userId);
  return { ...passkey, counter: newCounter, lastUsedAt: ctx.now };
}
