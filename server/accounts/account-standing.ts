// Whether an account may act, and with which organisation role: the one question other parts of
// the server (sessions, sign-in, team folders) ask about an account. A disabled account is not
// active: it cannot sign in, its sessions are gone, and it must not be chosen as a new member.
import type { OrgRole } from '../../contract/organisation.ts';
import type { Repositories, User } from '../db/repositories/index.ts';
import { AccountError } from './errors.ts';

export interface AccountStanding {
  active: boolean;
  role: OrgRole;
}

export function standingOf(user: Pick<User, 'disabledAt' | 'orgRole'>): AccountStanding {
  return { active: user.disabledAt === null, role: user.orgRole };
}

/** The account's standing, or undefined when there is no such account. */
export async function accountStanding(repos: Repositories, userId: number): Promise<AccountStanding | undefined> {
  const user = await repos.users.findById(userId);
  return user && standingOf(user);
}

export function isActiveAccount(user: Pick<User, 'disabledAt'>): boolean {
  return user.disabledAt === null;
}

export function isOrgAdmin(user: Pick<User, 'disabledAt' | 'orgRole'>): boolean {
  return isActiveAccount(user) && user.orgRole === 'admin';
}

/** Throws ORG_ADMIN_REQUIRED unless the (signed-in) user is an active organisation admin. */
export function requireOrgAdmin(user: Pick<User, 'disabledAt' | 'orgRole'>): void {
  if (!isOrgAdmin(user)) throw new AccountError('ORG_ADMIN_REQUIRED');
}
