// Who may sign in by single sign-on (docs/api.md "Single sign-on"), decided at every sign-in from
// the ID token's claims and the operator's rules, so that someone the provider disabled or took
// out of the allowed group is refused at their next sign-in:
// - an account already linked to the subject: while the rules still allow it (an open invitation
//   no longer counts: it was accepted when the account was made, so with rules set, the rules
//   decide; without any rule, every linked account stays allowed until an admin disables it);
// - a new person: an open invitation to their verified e-mail address, or a rule that allows them.
// The admin group makes organisation admins; it never demotes (an organisation admin stays one
// until another admin changes it), so losing that group cannot leave the organisation without one.
import type { SsoConfig } from '../../config.ts';
import type { OrgRole } from '../../../contract/organisation.ts';
import type { SsoClaims } from './provider.ts';

export type Admission =
  | { allowed: true; byRule: boolean; admin: boolean }
  | { allowed: false; reason: 'SSO_NOT_ALLOWED' | 'SSO_EMAIL_UNVERIFIED' };

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/** Whether the operator's rules (domains, groups) let this person in; false when there are none. */
function rulesAllow(config: SsoConfig, claims: SsoClaims): boolean {
  const byDomain = claims.email !== null && claims.emailVerified && config.allowedDomains.includes(domainOf(claims.email));
  const byGroup = claims.groups.some((group) => config.allowedGroups.includes(group));
  return byDomain || byGroup;
}

function hasRules(config: SsoConfig): boolean {
  return config.allowedDomains.length > 0 || config.allowedGroups.length > 0;
}

export function admitLinkedAccount(config: SsoConfig, claims: SsoClaims): Admission {
  const admin = config.adminGroup !== null && claims.groups.includes(config.adminGroup);
  if (!hasRules(config) || rulesAllow(config, claims) || admin) return { allowed: true, byRule: true, admin };
  return { allowed: false, reason: 'SSO_NOT_ALLOWED' };
}

/** A person without an account: `invited` when an open invitation names their verified address. */
export function admitNewPerson(config: SsoConfig, claims: SsoClaims, invited: boolean): Admission {
  const admin = config.adminGroup !== null && claims.groups.includes(config.adminGroup);
  if (claims.email === null) return { allowed: false, reason: 'SSO_NOT_ALLOWED' };
  if (invited) {
    if (!claims.emailVerified) return { allowed: false, reason: 'SSO_EMAIL_UNVERIFIED' };
    return { allowed: true, byRule: false, admin };
  }
  if (rulesAllow(config, claims) || admin) return { allowed: true, byRule: true, admin };
  return { allowed: false, reason: 'SSO_NOT_ALLOWED' };
}

export function roleFor(admission: Extract<Admission, { allowed: true }>, invitedRole: OrgRole | null): OrgRole {
  return admission.admin ? 'admin' : (invitedRole ?? 'member');
}
