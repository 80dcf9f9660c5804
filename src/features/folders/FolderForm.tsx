// The folder form of the create and edit screens (spec section 2 "Folder form fields"). It owns
// the field state and validation and hands a ready payload to `onSubmit`; a failed save shows the
// spec's 'An error occurred while saving. Please check details.' with the mapped API error.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { FolderPayload } from '../../api/types.ts';
import { OptionalSetting } from '../../app/forms/index.ts';
import { ButtonLink } from '../../app/layout/links.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { FORM_MESSAGES, FOLDER_PAGE_MESSAGES as messages } from '../../lib/userTexts.ts';
import { StorageLimitFields, validateLimits, type LimitsErrors } from '../storage/index.ts';
import { AccessFields } from './AccessFields.tsx';
import { ExpirationFields } from './ExpirationFields.tsx';
import {
  validateFolderForm,
  withExpirationMode,
  withPassword,
  type FolderFormErrors,
  type FolderFormValues,
} from './folderForm.ts';
import { buildFolderPayload, type FolderFormMode } from './folderPayload.ts';

interface FolderFormProps {
  mode: FolderFormMode;
  initialValues: FolderFormValues;
  /** Editing a folder whose upload link has a password. */
  hasExistingPassword?: boolean;
  submitLabel: string;
  /** Saves the folder; a rejection is shown on the form. */
  onSubmit(payload: FolderPayload): Promise<void>;
}

function FormPart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={2}>
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

export function FolderForm({ mode, initialValues, hasExistingPassword = false, submitLabel, onSubmit }: FolderFormProps) {
  const intl = useIntl();
  const notify = useNotifier();
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FolderFormErrors>({});
  const [limitErrors, setLimitErrors] = useState<LimitsErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function change(changes: Partial<FolderFormValues>) {
    setValues((current) => ({ ...current, ...changes }));
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const problems = validateFolderForm(values);
    const limitProblems = validateLimits(values.limits);
    setErrors(problems);
    setLimitErrors(limitProblems);
    if (Object.keys(problems).length > 0 || Object.keys(limitProblems).length > 0) return;
    setSaveError(null);
    setSaving(true);
    try {
      await onSubmit(buildFolderPayload(values, mode));
    } catch (cause) {
      setSaveError(notify.error(cause).message);
      setSaving(false);
    }
  }

  return (
    <Paper
      component="form"
      variant="outlined"
      noValidate
      onSubmit={handleSubmit}
      aria-label={intl.formatMessage(mode === 'create' ? messages.createFormLabel : messages.editFormLabel)}
      sx={{ p: { xs: 3, sm: 4 } }}
    >
      <Stack spacing={3.5}>
        <FormPart title={intl.formatMessage(messages.details)}>
          <TextField
            label={intl.formatMessage(messages.title)}
            name="title"
            required
            autoFocus={mode === 'create'}
            value={values.title}
            disabled={saving}
            error={Boolean(errors.title)}
            helperText={errors.title ?? intl.formatMessage(messages.titleHint)}
            onChange={(event) => change({ title: event.target.value })}
            slotProps={{ htmlInput: { maxLength: 255 } }}
          />
          <TextField
            label={intl.formatMessage(messages.description)}
            name="description"
            multiline
            minRows={3}
            value={values.description}
            disabled={saving}
            helperText={intl.formatMessage(messages.descriptionHint)}
            onChange={(event) => change({ description: event.target.value })}
          />
        </FormPart>
        <Divider />
        <FormPart title={intl.formatMessage(messages.access)}>
          <AccessFields
            values={values}
            errors={errors}
            disabled={saving}
            hasExistingPassword={hasExistingPassword}
            onPasswordChange={(password) => setValues((current) => withPassword(current, password))}
            onChange={change}
          />
        </FormPart>
        <Divider />
        <ExpirationFields
          values={values}
          errors={errors}
          disabled={saving}
          onModeChange={(expirationMode) => setValues((current) => withExpirationMode(current, expirationMode))}
          onChange={change}
        />
        <Divider />
        <StorageLimitFields values={values.limits} errors={limitErrors} disabled={saving} onChange={(limits) => change({ limits })} />
        {mode === 'update' && (
          <>
            <Divider />
            <OptionalSetting
              name="is_active"
              label={intl.formatMessage(messages.isActive)}
              checked={values.isActive}
              disabled={saving}
              onToggle={(isActive) => change({ isActive })}
              hint={intl.formatMessage(messages.isActiveHint)}
            />
          </>
        )}
        {saveError && (
          <Alert severity="error" role="alert">
            <AlertTitle>{FORM_MESSAGES.saveFailed}</AlertTitle>
            {saveError}
          </Alert>
        )}
        <Stack direction="row" spacing={1.5}>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? intl.formatMessage(messages.saving) : submitLabel}
          </Button>
          <ButtonLink to="/dashboard" variant="text" color="inherit" disabled={saving}>
            {intl.formatMessage(messages.cancel)}
          </ButtonLink>
        </Stack>
      </Stack>
    </Paper>
  );
}
