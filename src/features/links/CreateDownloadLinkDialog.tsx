import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState, type FormEvent } from 'react';
import { DialogChoice, ExpiryDateField, OptionalSetting, PasswordField, WholeNumberField } from '../../app/forms/index.ts';
import {
  MAX_LINK_DOWNLOADS,
  createLinkChoices,
  initialCreateLinkForm,
  validateCreateLinkForm,
  type CreateLinkChoices,
  type CreateLinkFormErrors,
  type CreateLinkFormValues,
} from './createLinkForm.ts';
import { generateLinkPassword } from './linkPassword.ts';
import { LinkPasswordStrengthError, linkPasswordStrength, type StrengthChecker } from './linkPasswordStrength.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';

interface CreateDownloadLinkDialogProps {
  open: boolean;
  /** Names of the files the link will share. */
  fileNames: readonly string[];
  busy: boolean;
  onCancel(): void;
  onSubmit(choices: CreateLinkChoices): void;
  /** Judges typed passwords; the app's lazily loaded zxcvbn checker unless a test gives another. */
  strengthChecker?: StrengthChecker;
}

/** The create-link dialog (spec section 5). Mounted fresh on every open, so defaults are new each time. */
export function CreateDownloadLinkDialog({ open, fileNames, busy, onCancel, onSubmit, strengthChecker = linkPasswordStrength }: CreateDownloadLinkDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} maxWidth="sm">
      <DialogTitle id={titleId}>Create Download Link</DialogTitle>
      {open && <CreateLinkForm fileNames={fileNames} busy={busy} onCancel={onCancel} onSubmit={onSubmit} strengthChecker={strengthChecker} />}
    </Dialog>
  );
}

function summary(fileNames: readonly string[]): string {
  if (fileNames.length === 1) return `The link will share "${fileNames[0]}".`;
  const shown = fileNames.slice(0, 3).map((name) => `"${name}"`).join(', ');
  const more = fileNames.length > 3 ? ` and ${fileNames.length - 3} more` : '';
  return `The link will share ${fileNames.length} files: ${shown}${more}.`;
}

function CreateLinkForm({ fileNames, busy: submitting, onCancel, onSubmit, strengthChecker }: Omit<CreateDownloadLinkDialogProps, 'open'> & { strengthChecker: StrengthChecker }) {
  const [values, setValues] = useState<CreateLinkFormValues>(() => initialCreateLinkForm());
  const [errors, setErrors] = useState<CreateLinkFormErrors>({});
  // The last password the dialog suggested: it is accepted as it is; anything else was typed and
  // must pass the strength check.
  const [suggested, setSuggested] = useState(values.password);
  const [checking, setChecking] = useState(false);
  const busy = submitting || checking;
  const typed = values.usePassword && values.password !== suggested;
  const offerSuggestion = errors.password === CREATE_LINK_MESSAGES.passwordTooWeak || errors.password === CREATE_LINK_MESSAGES.passwordCheckUnavailable;

  function change(changes: Partial<CreateLinkFormValues>) {
    setValues((current) => ({ ...current, ...changes }));
    setErrors((current) => {
      const next = { ...current };
      if ('password' in changes || 'confirmPassword' in changes || 'usePassword' in changes) {
        delete next.password;
        delete next.confirmPassword;
      }
      if ('expiration' in changes || 'useExpiration' in changes) delete next.expiration;
      if ('maxDownloads' in changes || 'useDownloadLimit' in changes) delete next.maxDownloads;
      return next;
    });
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateCreateLinkForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (typed) {
      const message = await strengthProblem(values.password);
      if (message) {
        setErrors({ password: message });
        return;
      }
    }
    onSubmit(createLinkChoices(values));
  }

  /** Null when the typed password is strong enough, else the message saying why it is refused. */
  async function strengthProblem(password: string): Promise<string | null> {
    setChecking(true);
    try {
      return (await strengthChecker.isStrongEnough(password)) ? null : CREATE_LINK_MESSAGES.passwordTooWeak;
    } catch (error) {
      if (error instanceof LinkPasswordStrengthError) return CREATE_LINK_MESSAGES.passwordCheckUnavailable;
      throw error;
    } finally {
      setChecking(false);
    }
  }

  /** The props that tie an optional setting's checkbox to its value. */
  function setting(field: 'usePassword' | 'useExpiration' | 'useDownloadLimit', name: string) {
    return { name, checked: values[field], disabled: busy, onToggle: (on: boolean) => change({ [field]: on }) };
  }

  function newPassword() {
    const password = generateLinkPassword();
    setSuggested(password);
    change({ password, confirmPassword: password });
  }

  function typePassword(password: string) {
    // The estimator's dictionaries load while the admin types, not when they press Create Link.
    if (password !== suggested) strengthChecker.preload();
    change({ password });
  }

  return (
    <Stack component="form" noValidate onSubmit={(event: FormEvent) => void handleSubmit(event)} aria-label="Create download link">
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText sx={{ mb: 2.5 }}>{summary(fileNames)}</DialogContentText>
        <Stack spacing={1.5}>
          <OptionalSetting
            {...setting('usePassword', 'use_password')}
            label="Protect with a password"
            hint="The recipient enters this password to unlock the files. It never leaves your browser."
            hintWhenOff="The decryption keys travel inside the link itself: anyone holding the full link can download."
          >
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
                <PasswordField revealed label="Link password" name="link_password" autoComplete="off" value={values.password} onChange={typePassword}
                  disabled={busy} error={errors.password} helperText="Suggested for you; you may type your own." />
                <Button variant="outlined" onClick={newPassword} disabled={busy} sx={{ whiteSpace: 'nowrap', mt: { sm: 1 }, flexShrink: 0 }}>
                  New password
                </Button>
              </Stack>
              {offerSuggestion && (
                <Button variant="text" size="small" onClick={newPassword} disabled={busy} sx={{ alignSelf: 'flex-start', mt: -1 }}>
                  {CREATE_LINK_MESSAGES.useSuggestedPassword}
                </Button>
              )}
              <PasswordField revealed label="Confirm link password" name="confirm_link_password" autoComplete="off" value={values.confirmPassword}
                onChange={(confirmPassword) => change({ confirmPassword })} disabled={busy} error={errors.confirmPassword} helperText=" " />
            </Stack>
          </OptionalSetting>
          <OptionalSetting
            {...setting('useExpiration', 'use_expiration')}
            label="Link expires"
            hint="After this date and time (your local time) the link stops working."
            hintWhenOff="The link works until you delete it."
          >
            <ExpiryDateField name="expiration_date" value={values.expiration} disabled={busy} error={errors.expiration} onChange={(expiration) => change({ expiration })} />
          </OptionalSetting>
          <OptionalSetting
            {...setting('useDownloadLimit', 'use_download_limit')}
            label="Limit downloads"
            hint="Each file can be downloaded this many times, once per recipient browser (resuming is free). Downloading all files as one ZIP counts once for each file. After that the link answers as expired."
            hintWhenOff="Files can be downloaded any number of times."
          >
            <WholeNumberField label="Downloads per file" name="max_downloads" max={MAX_LINK_DOWNLOADS} maxWidth={200}
              value={values.maxDownloads} onChange={(maxDownloads) => change({ maxDownloads })} disabled={busy} error={errors.maxDownloads} />
          </OptionalSetting>
        </Stack>
      </DialogContent>
      <DialogChoice
        dismissLabel="Cancel"
        onDismiss={onCancel}
        confirmLabel={checking ? CREATE_LINK_MESSAGES.checkingPassword : submitting ? 'Creating...' : 'Create Link'}
        busy={busy}
      />
    </Stack>
  );
}
