// The account a single sign-on signs in as (docs/api.md "Single sign-on"): the one linked to the
// provider's subject, while the operator's rules still allow it; or, for a first sign-in, a new
// account for an invited or allowed person. An account made here has no password: its password
// hash is of a random secret nobody keeps, and its KDF block is made like any account's so the
// pre-login answers its name like any other.
import { randomBytes } from 'node:crypto';
import type { SsoConfig } from '../../config.ts';
import { newBoundArgon2Block } from '../../crypto/index.ts';
import type { Repositories, User } from '../../db/repositories/index.ts';
import { UsernameTakenError } from '../../db/repositories/index.ts';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from '../../../contract/auth.ts';
import { hashAuthSecret } from '../login-secret.ts';
import { admitLinkedAccount, admitNewPerson, roleFor } from './admission.ts';
import { SsoError } from './errors.ts';
import type { SsoClaims } from './provider.ts';

const USERNAME_TRIES = 20;

/** A username from the e-mail address's local part: the allowed characters only, 3 to 64 of them. */
export function usernameFromEmail(email: string): string {
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
  const cleaned = local.replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  const base = cleaned.length >= 3 ? cleaned : `${cleaned}-user`.replace(/^-/, '');
  return base.slice(0, USERNAME_MAX_LENGTH - 3);
}

export interface SsoSignIn {
  user: User;
  created: boolean;
}

export async function accountForSignIn(repos: Repositories, config: SsoConfig, claims: SsoClaims, now: number): Promise<SsoSignIn> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const linked = await repos.ssoIdentities.findUser(claims.issuer, claims.subject);
    if (linked) {
      const admission = admitLinkedAccount(config, claims);
      if (!admission.allowed) throw new SsoError(admission.reason);
      await repos.ssoIdentities.recordSignIn(linked.identityId, now);
      if (admission.admin && linked.user.orgRole !== 'admin') await repos.users.setOrgRole(linked.user.id, 'admin');
      const user = (await repos.users.findById(linked.user.id)) ?? linked.user;
      return { user, created: false };
    }
    const created = await createAccount(repos, config, claims, now);
    if (created) return { user: created, created: true };
    // Another request made this subject's account meanwhile: sign in to that one.
  }
  throw new SsoError('SSO_SIGN_IN_FAILED');
}

async function createAccount(repos: Repositories, config: SsoConfig, claims: SsoClaims, now: number): Promise<User | undefined> {
  const invitation = claims.email !== null ? await repos.invitations.findOpenForEmail(claims.email, now) : undefined;
  const admission = admitNewPerson(config, claims, invitation !== undefined);
  if (!admission.allowed) throw new SsoError(admission.reason);
  const email = claims.email!;
  const passwordHash = await hashAuthSecret(randomBytes(32).toString('base64'));
  const base = usernameFromEmail(email);
  for (let n = 1; n <= USERNAME_TRIES; n++) {
    const username = n === 1 ? base : `${base}${n}`;
    if (!USERNAME_PATTERN.test(username) || (await repos.users.findByUsername(username))) continue;
    try {
      const outcome = await repos.ssoIdentities.createAccount({
        issuer: claims.issuer,
        subject: claims.subject,
        username,
        email,
        displayName: invitation?.displayName ?? claims.name,
        orgRole: roleFor(admission, invitation?.orgRole ?? null),
        passwordHash,
        kdfParams: newBoundArgon2Block(username),
        invitationId: admission.byRule ? null : (invitation?.id ?? null),
        now,
      });
      if (outcome.kind === 'created') return outcome.user;
      if (outcome.kind === 'exists') return undefined;
      // The invitation went meanwhile (revoked, or accepted by another sign-in): decide again.
      return createAccount(repos, config, claims, now);
    } catch (error) {
      if (!(error instanceof UsernameTakenError)) throw error;
    }
  }
  throw new SsoError('SSO_SIGN_IN_FAILED');
}
