import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useIntl } from 'react-intl';
import { OptionalSetting, PasswordField } from '../../app/forms/index.ts';
import { FOLDER_PAGE_MESSAGES as messages } from '../../lib/userTexts.ts';
import type { FolderFormErrors, FolderFormValues } from './folderForm.ts';

interface AccessFieldsProps {
  values: FolderFormValues;
  errors: FolderFormErrors;
  disabled: boolean;
  /** Editing a folder whose link already has a password. */
  hasExistingPassword: boolean;
  onPasswordChange(password: string): void;
  onChange(changes: Partial<FolderFormValues>): void;
}

/** Who may upload: link password, e-mail verification with its allowed list, MIME check. */
export function AccessFields({ values, errors, disabled, hasExistingPassword, onPasswordChange, onChange }: AccessFieldsProps) {
  const intl = useIntl();
  /** The props that tie an optional setting's checkbox to its value. */
  function setting(field: 'usePassword' | 'requireEmailVerification' | 'performMimeCheck', name: string) {
    return { name, checked: values[field], disabled, onToggle: (on: boolean) => onChange({ [field]: on }) };
  }

  return (
    <Stack spacing={2}>
      <OptionalSetting
        {...setting('usePassword', 'use_password')}
        label={intl.formatMessage(hasExistingPassword ? messages.changePassword : messages.protectWithPassword)}
        hint={intl.formatMessage(hasExistingPassword ? messages.existingPasswordHint : messages.passwordHint)}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
          <PasswordField
            label={intl.formatMessage(hasExistingPassword ? messages.newPassword : messages.password)}
            name="link_password"
            autoComplete="new-password"
            value={values.password}
            disabled={disabled}
            helperText={intl.formatMessage(hasExistingPassword ? messages.blankRemovesPassword : messages.shareSeparately)}
            onChange={onPasswordChange}
          />
          <PasswordField
            label={intl.formatMessage(messages.confirmPassword)}
            name="confirm_link_password"
            autoComplete="new-password"
            value={values.confirmPassword}
            disabled={disabled || values.password === ''}
            error={errors.confirmPassword}
            // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- an empty line under the field, so both fields line up; no text
            helperText=" "
            onChange={(confirmPassword) => onChange({ confirmPassword })}
          />
        </Stack>
      </OptionalSetting>

      <OptionalSetting
        {...setting('requireEmailVerification', 'require_email_verification')}
        label={intl.formatMessage(messages.requireEmail)}
        hint={intl.formatMessage(messages.requireEmailHint)}
      >
        <TextField
          label={intl.formatMessage(messages.allowedEmails)}
          name="allowed_emails"
          value={values.allowedEmails}
          disabled={disabled}
          placeholder={intl.formatMessage(messages.allowedEmailsExample)}
          error={Boolean(errors.allowedEmails)}
          helperText={errors.allowedEmails ?? intl.formatMessage(messages.allowedEmailsHint)}
          onChange={(event) => onChange({ allowedEmails: event.target.value })}
          fullWidth
        />
      </OptionalSetting>

      <OptionalSetting
        {...setting('performMimeCheck', 'perform_mime_check')}
        label={intl.formatMessage(messages.mimeCheck)}
        hint={intl.formatMessage(messages.mimeCheckHint)}
      />
    </Stack>
  );
}
