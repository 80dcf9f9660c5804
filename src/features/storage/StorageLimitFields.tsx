// The folder form's storage part (beyond the spec's fields): a storage limit, a file limit
// and retention, each a checkbox with its field. Without values (the server's defaults could not
// be loaded for a new folder) it says that the server's limits apply.
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { LIMIT_TEXTS } from '../../lib/userTexts.ts';
import type { LimitsErrors, LimitsField, LimitsFormValues } from './limitsForm.ts';

interface StorageLimitFieldsProps {
  values: LimitsFormValues | null;
  errors: LimitsErrors;
  disabled: boolean;
  onChange(values: LimitsFormValues): void;
}

interface LimitRowProps {
  checked: boolean;
  checkboxLabel: string;
  name: string;
  onToggle(checked: boolean): void;
  /** Shown while unchecked: what having no limit means. */
  offText: string;
  disabled: boolean;
  children: ReactNode;
}

function LimitRow({ checked, checkboxLabel, name, onToggle, offText, disabled, children }: LimitRowProps) {
  return (
    <Stack spacing={1}>
      <FormControlLabel
        control={<Checkbox name={name} checked={checked} disabled={disabled} onChange={(event) => onToggle(event.target.checked)} />}
        label={checkboxLabel}
      />
      {checked ? (
        <Stack sx={{ pl: 4 }}>{children}</Stack>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ pl: 4, mt: -1 }}>
          {offText}
        </Typography>
      )}
    </Stack>
  );
}

export function StorageLimitFields({ values, errors, disabled, onChange }: StorageLimitFieldsProps) {
  const heading = (
    <Typography variant="h3" component="h2">
      {LIMIT_TEXTS.sectionTitle}
    </Typography>
  );
  if (values === null) {
    return (
      <Stack spacing={1}>
        {heading}
        <Typography variant="body2" color="text.secondary">
          {LIMIT_TEXTS.serverDefaults}
        </Typography>
      </Stack>
    );
  }
  const change = (changes: Partial<LimitsFormValues>) => onChange({ ...values, ...changes });
  const numberField = (field: LimitsField, label: string, help: string, inputMode: 'numeric' | 'decimal') => (
    <TextField
      label={label}
      name={field}
      value={values[field]}
      disabled={disabled}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? help}
      onChange={(event) => change({ [field]: event.target.value })}
      slotProps={{ htmlInput: { inputMode } }}
      sx={{ maxWidth: 320 }}
    />
  );
  return (
    <Stack spacing={2} component="section" aria-label={LIMIT_TEXTS.sectionTitle}>
      {heading}
      <Typography variant="body2" color="text.secondary">
        {LIMIT_TEXTS.sectionIntro}
      </Typography>
      <LimitRow
        checked={values.storageLimited}
        checkboxLabel={LIMIT_TEXTS.storageLimited}
        name="storage_limited"
        onToggle={(storageLimited) => change({ storageLimited })}
        offText={LIMIT_TEXTS.noStorageLimit}
        disabled={disabled}
      >
        {numberField('storageLimitMb', LIMIT_TEXTS.storageLimitLabel, LIMIT_TEXTS.storageLimitHelp, 'decimal')}
      </LimitRow>
      <LimitRow
        checked={values.filesLimited}
        checkboxLabel={LIMIT_TEXTS.filesLimited}
        name="files_limited"
        onToggle={(filesLimited) => change({ filesLimited })}
        offText={LIMIT_TEXTS.noFileLimit}
        disabled={disabled}
      >
        {numberField('fileLimit', LIMIT_TEXTS.fileLimitLabel, LIMIT_TEXTS.storageLimitHelp, 'numeric')}
      </LimitRow>
      <LimitRow
        checked={values.deleteAfterDays}
        checkboxLabel={LIMIT_TEXTS.retentionOn}
        name="delete_after_days"
        onToggle={(deleteAfterDays) => change({ deleteAfterDays })}
        offText={LIMIT_TEXTS.retentionOff}
        disabled={disabled}
      >
        {numberField('retentionDays', LIMIT_TEXTS.retentionLabel, LIMIT_TEXTS.retentionHelp, 'numeric')}
      </LimitRow>
    </Stack>
  );
}
