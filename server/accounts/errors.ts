// The refusals of organisation accounts and invitations (docs/api.md, "Error codes").
import { httpErrorTable } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  ACCOUNT_DISABLED: { id: 'server.accounts.accountDisabled', defaultMessage: 'This account is disabled. Ask an organisation admin to enable it.' },
  ORG_ADMIN_REQUIRED: { id: 'server.accounts.orgAdminRequired', defaultMessage: 'Only an organisation admin may do this' },
  ACCOUNT_NOT_FOUND: { id: 'server.accounts.accountNotFound', defaultMessage: 'Account not found' },
  CANNOT_DISABLE_SELF: { id: 'server.accounts.cannotDisableSelf', defaultMessage: 'You cannot disable your own account' },
  LAST_ORG_ADMIN: { id: 'server.accounts.lastOrgAdmin', defaultMessage: 'The last active organisation admin cannot be disabled' },
  INVITATION_NOT_FOUND: { id: 'server.accounts.invitationNotFound', defaultMessage: 'Invitation not found' },
  INVITATION_EXPIRED: { id: 'server.accounts.invitationExpired', defaultMessage: 'This invitation has expired. Ask for a new one.' },
  INVITATION_USED: { id: 'server.accounts.invitationUsed', defaultMessage: 'This invitation has already been used' },
  INVITATION_REVOKED: { id: 'server.accounts.invitationRevoked', defaultMessage: 'This invitation was withdrawn' },
  INVITATION_PENDING: { id: 'server.accounts.invitationPending', defaultMessage: 'An open invitation to this address exists: resend it instead' },
  INVITATION_MAIL_FAILED: { id: 'server.accounts.invitationMailFailed', defaultMessage: 'The invitation was saved but its e-mail could not be sent. Try Resend later.' },
});

export const ACCOUNT_ERRORS = {
  ACCOUNT_DISABLED: { status: 403, detail: details.ACCOUNT_DISABLED },
  ORG_ADMIN_REQUIRED: { status: 403, detail: details.ORG_ADMIN_REQUIRED },
  ACCOUNT_NOT_FOUND: { status: 404, detail: details.ACCOUNT_NOT_FOUND },
  CANNOT_DISABLE_SELF: { status: 409, detail: details.CANNOT_DISABLE_SELF },
  LAST_ORG_ADMIN: { status: 409, detail: details.LAST_ORG_ADMIN },
  INVITATION_NOT_FOUND: { status: 404, detail: details.INVITATION_NOT_FOUND },
  INVITATION_EXPIRED: { status: 410, detail: details.INVITATION_EXPIRED },
  INVITATION_USED: { status: 410, detail: details.INVITATION_USED },
  INVITATION_REVOKED: { status: 410, detail: details.INVITATION_REVOKED },
  INVITATION_PENDING: { status: 409, detail: details.INVITATION_PENDING },
  INVITATION_MAIL_FAILED: { status: 502, detail: details.INVITATION_MAIL_FAILED },
} as const;

export type AccountErrorCode = keyof typeof ACCOUNT_ERRORS;

export class AccountError extends httpErrorTable(ACCOUNT_ERRORS) {}
