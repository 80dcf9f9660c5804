// The refusals of the organisation recovery policy (docs/api.md, "Organisation recovery").
import { httpErrorTable } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  ORG_RECOVERY_OFF: { id: 'server.orgRecovery.off', defaultMessage: 'The organisation recovery policy is off.' },
  ORG_RECOVERY_ON: { id: 'server.orgRecovery.on', defaultMessage: 'The organisation recovery policy is on already; nothing was changed.' },
  ORG_KEY_CHANGED: { id: 'server.orgRecovery.keyChanged', defaultMessage: 'The organisation key changed meanwhile; nothing was stored. Load it again.' },
  ORG_RECOVERY_COPY_NOT_FOUND: {
    id: 'server.orgRecovery.copyNotFound',
    defaultMessage: "This member's key is not held for the organisation (they have not signed in since the policy was turned on, or made a new key pair).",
  },
});

export const ORG_RECOVERY_ERRORS = {
  ORG_RECOVERY_OFF: { status: 409, detail: details.ORG_RECOVERY_OFF },
  ORG_RECOVERY_ON: { status: 409, detail: details.ORG_RECOVERY_ON },
  ORG_KEY_CHANGED: { status: 409, detail: details.ORG_KEY_CHANGED },
  ORG_RECOVERY_COPY_NOT_FOUND: { status: 404, detail: details.ORG_RECOVERY_COPY_NOT_FOUND },
} as const;

export type OrgRecoveryErrorCode = keyof typeof ORG_RECOVERY_ERRORS;

export class OrgRecoveryError extends httpErrorTable(ORG_RECOVERY_ERRORS) {}
