import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { OptionalSetting, PasswordField } from '../../app/forms/index.ts';
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
  /** The props that tie an optional setting's checkbox to its value. */
  function setting(field: 'usePassword' | 'requireEmailVerification' | 'performMimeCheck', name: string) {
    return { name, checked: values[field], disabled, onToggle: (on: boolean) => onChange({ [field]: on }) };
  }

  return (
    <Stack spacing={2}>
      <OptionalSetting
        {...setting('usePassword', 'use_password')}
        label={hasExistingPassword ? 'Change or remove the link password' : 'Protect the upload link with a password'}
        hint={
          hasExistingPassword
            ? 'The upload link has a password. Leave this unticked to keep it; tick it and leave the fields blank to remove it.'
            : 'Uploaders must enter this password before they can send files.'
        }
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
          <PasswordField
            label={hasExistingPassword ? 'New link password' : 'Link password'}
            name="link_password"
            autoComplete="new-password"
            value={values.password}
            disabled={disabled}
            helperText={hasExistingPassword ? 'Blank removes the password.' : 'Share it with uploaders separately.'}
            onChange={onPasswordChange}
          />
          <PasswordField
            label="Confirm link password"
            name="confirm_link_password"
            autoComplete="new-password"
            value={values.confirmPassword}
            disabled={disabled || values.password === ''}
            error={errors.confirmPassword}
            helperText=" "
            onChange={(confirmPassword) => onChange({ confirmPassword })}
          />
        </Stack>
      </OptionalSetting>

      <OptionalSetting
        {...setting('requireEmailVerification', 'require_email_verification')}
        label="Require e-mail verification"
        hint="Uploaders confirm their e-mail address with a 6-digit code before sending files."
      >
        <TextField
          label="Allowed e-mails"
          name="allowed_emails"
          value={values.allowedEmails}
          disabled={disabled}
          placeholder="anna@example.com, ben@example.org"
          error={Boolean(errors.allowedEmails)}
          helperText={errors.allowedEmails ?? 'Comma-separated. Leave empty to let any verified address upload.'}
          onChange={(event) => onChange({ allowedEmails: event.target.value })}
          fullWidth
        />
      </OptionalSetting>

      <OptionalSetting
        {...setting('performMimeCheck', 'perform_mime_check')}
        label="Perform MIME check"
        hint="Check that each uploaded file's content matches its file type."
      />
    </Stack>
  );
}
