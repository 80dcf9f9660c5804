import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactElement, ReactNode } from 'react';
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

function Option({ label, hint, control }: { label: string; hint: ReactNode; control: ReactElement }) {
  return (
    <div>
      <FormControlLabel control={control} label={label} />
      <Typography variant="body2" color="text.secondary" sx={{ ml: 4, mt: -0.5 }}>
        {hint}
      </Typography>
    </div>
  );
}

/** Who may upload: link password, e-mail verification with its allowed list, MIME check. */
export function AccessFields({ values, errors, disabled, hasExistingPassword, onPasswordChange, onChange }: AccessFieldsProps) {
  return (
    <Stack spacing={2}>
      <Option
        label={hasExistingPassword ? 'Change or remove the link password' : 'Protect the upload link with a password'}
        hint={
          hasExistingPassword
            ? 'The upload link has a password. Leave this unticked to keep it; tick it and leave the fields blank to remove it.'
            : 'Uploaders must enter this password before they can send files.'
        }
        control={
          <Checkbox
            name="use_password"
            checked={values.usePassword}
            disabled={disabled}
            onChange={(event) => onChange({ usePassword: event.target.checked })}
          />
        }
      />
      <Collapse in={values.usePassword} unmountOnExit>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ ml: { sm: 4 }, pt: 1 }}>
          <TextField
            label={hasExistingPassword ? 'New link password' : 'Link password'}
            name="link_password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            disabled={disabled}
            helperText={hasExistingPassword ? 'Blank removes the password.' : 'Share it with uploaders separately.'}
            onChange={(event) => onPasswordChange(event.target.value)}
          />
          <TextField
            label="Confirm link password"
            name="confirm_link_password"
            type="password"
            autoComplete="new-password"
            value={values.confirmPassword}
            disabled={disabled || values.password === ''}
            error={Boolean(errors.confirmPassword)}
            helperText={errors.confirmPassword ?? ' '}
            onChange={(event) => onChange({ confirmPassword: event.target.value })}
          />
        </Stack>
      </Collapse>

      <Option
        label="Require e-mail verification"
        hint="Uploaders confirm their e-mail address with a 6-digit code before sending files."
        control={
          <Checkbox
            name="require_email_verification"
            checked={values.requireEmailVerification}
            disabled={disabled}
            onChange={(event) => onChange({ requireEmailVerification: event.target.checked })}
          />
        }
      />
      <Collapse in={values.requireEmailVerification} unmountOnExit>
        <TextField
          label="Allowed e-mails"
          name="allowed_emails"
          value={values.allowedEmails}
          disabled={disabled}
          placeholder="anna@example.com, ben@example.org"
          error={Boolean(errors.allowedEmails)}
          helperText={errors.allowedEmails ?? 'Comma-separated. Leave empty to let any verified address upload.'}
          onChange={(event) => onChange({ allowedEmails: event.target.value })}
          sx={{ ml: { sm: 4 }, mt: 1, width: { sm: 'calc(100% - 32px)' } }}
        />
      </Collapse>

      <Option
        label="Perform MIME check"
        hint="Check that each uploaded file's content matches its file type."
        control={
          <Checkbox
            name="perform_mime_check"
            checked={values.performMimeCheck}
            disabled={disabled}
            onChange={(event) => onChange({ performMimeCheck: event.target.checked })}
          />
        }
      />
    </Stack>
  );
}
