// The refusals of organisation accounts and invitations (docs/api.md, "Error codes").
import { httpErrorTable } from '../errors.ts';

export const ACCOUNT_ERRORS = {
  ACCOUNT_DISABLED: { status: 403, detail: 'This account is disabled. Ask an organisation admin to enable it.' },
  ORG_ADMIN_REQUIRED: { status: 403, detail: 'Only an organisation admin may do this' },
  ACCOUNT_NOT_FOUND: { status: 404, detail: 'Account not found' },
  CANNOT_DISABLE_SELF: { status: 409, detail: 'You cannot disable your own account' },
  LAST_ORG_ADMIN: { status: 409, detail: 'The last active organisation admin cannot be disabled' },
  INVITATION_NOT_FOUND: { status: 404, detail: 'Invitation not found' },
  INVITATION_EXPIRED: { status: 410, detail: 'This invitation has expired. Ask for a new one.' },
  INVITATION_USED: { status: 410, detail: 'This invitation has already been used' },
  INVITATION_REVOKED: { status: 410, detail: 'This invitation was withdrawn' },
  INVITATION_PENDING: { status: 409, detail: 'An open invitation to this address exists: resend it instead' },
  INVITATION_MAIL_FAILED: { status: 502, detail: 'The invitation was saved but its e-mail could not be sent. Try Resend later.' },
} as const;

export type AccountErrorCode = keyof typeof ACCOUNT_ERRORS;

export class AccountError extends httpErrorTable(ACCOUNT_ERRORS) {}
