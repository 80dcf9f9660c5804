// Builds the create/update payload from the form (spec section 3 "Folder create/update payload" and
// section 5 "Folder form"):
// - expires_in_days > 0 (a whole number: the API takes no fractions) is sent and expiration_date dropped; otherwise days are dropped and
//   expiration_date is sent only if the form has one (none mode sends null: "no expiry");
// - on update, invalid days send no expiry change at all;
// - allowed_emails is null when empty (and when e-mail verification is off);
// - link_password only when the password option is on ('' removes the password);
// - is_active only on update;
// - the storage limits and retention (beyond the spec): all on create, what changed on update.
import type { FolderPayload } from '../../api/types.ts';
import { limitsPayload } from '../storage/index.ts';
import { parseEmailList, parseLocalDateTime, type FolderFormValues } from './folderForm.ts';

export type FolderFormMode = 'create' | 'update';

function expiryFields(values: FolderFormValues): Pick<FolderPayload, 'expires_in_days' | 'expiration_date'> {
  switch (values.expirationMode) {
    case 'days': {
      const days = values.expiresInDays.trim() === '' ? Number.NaN : Number(values.expiresInDays);
      return Number.isInteger(days) && days > 0 ? { expires_in_days: days } : {};
    }
    case 'date': {
      if (values.storedExpiration && values.expirationDate === values.storedExpiration.input) {
        return { expiration_date: values.storedExpiration.iso };
      }
      const parsed = parseLocalDateTime(values.expirationDate);
      return parsed.ok ? { expiration_date: parsed.iso } : {};
    }
    case 'none':
      return { expiration_date: null };
  }
}

export function buildFolderPayload(values: FolderFormValues, mode: FolderFormMode): FolderPayload {
  const emails = values.requireEmailVerification ? parseEmailList(values.allowedEmails) : [];
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    require_email_verification: values.requireEmailVerification,
    allowed_emails: emails.length > 0 ? emails : null,
    perform_mime_check: values.performMimeCheck,
    ...expiryFields(values),
    ...(values.usePassword ? { link_password: values.password } : {}),
    ...(mode === 'update' ? { is_active: values.isActive } : {}),
    ...limitsPayload(values.limits, mode),
  };
}
