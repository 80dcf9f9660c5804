import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
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
import { t } from '../../i18n/language.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

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
  const intl = useIntl();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} maxWidth="sm">
      <DialogTitle id={titleId}>{intl.formatMessage(messages.dialogTitle)}</DialogTitle>
      {open && <CreateLinkForm fileNames={fileNames} busy={busy} onCancel={onCancel} onSubmit={onSubmit} strengthChecker={strengthChecker} />}
    </Dialog>
  );
}

function summary(fileNames: readonly string[]): string {
  if (fileNames.length === 1) return t(messages.summaryOne, { name: fileNames[0] });
  const names = fileNames
    .slice(0, 3)
    .map((name) => t(messages.quotedName, { name }))
    .join(', ');
  const more = fileNames.length - 3;
  return more > 0 ? t(messages.summaryManyMore, { count: fileNames.length, names, more }) : t(messages.summaryMany, { count: fileNames.length, names });
}

function CreateLinkForm({ fileNames, busy: submitting, onCancel, onSubmit, strengthChecker }: Omit<CreateDownloadLinkDialogProps, 'open'> & { strengthChecker: StrengthChecker }) {
  const intl = useIntl();
  const [values, setValues] = useState<CreateLinkFormValues>(() => initialCreateLinkForm());
  const [errors, setErrors] = useState<CreateLinkFormErrors>({});
  // The last password the dialog suggested: it is accepted as it is; anything else was typed and
  // must pass the strength check.
  const [suggested, setSuggested] = useState(values.password);
  const [checking, setChecking] = useState(false);
  // The password was refused by the strength check (not by a rule): offer a suggestion. Kept apart
  // from the error's text, which is in the language it was shown in.
  const [strengthRefused, setStrengthRefused] = useState(false);
  const busy = submitting || checking;
  const typed = values.usePassword && values.password !== suggested;
  const offerSuggestion = strengthRefused && errors.password !== undefined;

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
    setStrengthRefused(false);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (typed) {
      const message = await strengthProblem(values.password);
      if (message) {
        setStrengthRefused(true);
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
    <Stack component="form" noValidate onSubmit={(event: FormEvent) => void handleSubmit(event)} aria-label={intl.formatMessage(messages.formLabel)}>
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText sx={{ mb: 2.5 }}>{summary(fileNames)}</DialogContentText>
        <Stack spacing={1.5}>
          <OptionalSetting
            {...setting('usePassword', 'use_password')}
            label={intl.formatMessage(messages.protect)}
            hint={intl.formatMessage(messages.protectHint)}
            hintWhenOff={intl.formatMessage(messages.protectOffHint)}
          >
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
                <PasswordField revealed label={intl.formatMessage(messages.password)} name="link_password" autoComplete="off" value={values.password} onChange={typePassword}
                  disabled={busy} error={errors.password} helperText={intl.formatMessage(messages.passwordHint)} />
                <Button variant="outlined" onClick={newPassword} disabled={busy} sx={{ whiteSpace: 'nowrap', mt: { sm: 1 }, flexShrink: 0 }}>
                  {intl.formatMessage(messages.newPassword)}
                </Button>
              </Stack>
              {offerSuggestion && (
                <Button variant="text" size="small" onClick={newPassword} disabled={busy} sx={{ alignSelf: 'flex-start', mt: -1 }}>
                  {CREATE_LINK_MESSAGES.useSuggestedPassword}
                </Button>
              )}
              <PasswordField revealed label={intl.formatMessage(messages.confirmPassword)} name="confirm_link_password" autoComplete="off" value={values.confirmPassword}
                onChange={(confirmPassword) => change({ confirmPassword })} disabled={busy} error={errors.confirmPassword}
                // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- an empty line under the field, so the fields keep their spacing; no text
                helperText=" " />
            </Stack>
          </OptionalSetting>
          <OptionalSetting
            {...setting('useExpiration', 'use_expiration')}
            label={intl.formatMessage(messages.expires)}
            hint={intl.formatMessage(messages.expiresHint)}
            hintWhenOff={intl.formatMessage(messages.expiresOffHint)}
          >
            <ExpiryDateField name="expiration_date" value={values.expiration} disabled={busy} error={errors.expiration} onChange={(expiration) => change({ expiration })} />
          </OptionalSetting>
          <OptionalSetting
            {...setting('useDownloadLimit', 'use_download_limit')}
            label={intl.formatMessage(messages.limitDownloads)}
            hint={intl.formatMessage(messages.limitHint)}
            hintWhenOff={intl.formatMessage(messages.limitOffHint)}
          >
            <WholeNumberField label={intl.formatMessage(messages.downloadsPerFile)} name="max_downloads" max={MAX_LINK_DOWNLOADS} maxWidth={200}
              value={values.maxDownloads} onChange={(maxDownloads) => change({ maxDownloads })} disabled={busy} error={errors.maxDownloads} />
          </OptionalSetting>
        </Stack>
      </DialogContent>
      <DialogChoice
        dismissLabel={intl.formatMessage(messages.cancel)}
        onDismiss={onCancel}
        confirmLabel={checking ? CREATE_LINK_MESSAGES.checkingPassword : intl.formatMessage(submitting ? messages.creating : messages.submit)}
        busy={busy}
      />
    </Stack>
  );
}
