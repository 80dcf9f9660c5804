// The folder form's storage part (beyond the spec's fields): a storage limit, a file limit
// and retention, each a checkbox with its field. Without values (the server's defaults could not
// be loaded for a new folder) it says that the server's limits apply.
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { OptionalSetting } from '../../app/forms/index.ts';
import { LIMIT_TEXTS } from '../../lib/userTexts.ts';
import type { LimitsErrors, LimitsField, LimitsFormValues } from './limitsForm.ts';

interface StorageLimitFieldsProps {
  values: LimitsFormValues | null;
  errors: LimitsErrors;
  disabled: boolean;
  onChange(values: LimitsFormValues): void;
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
      <OptionalSetting
        name="storage_limited"
        label={LIMIT_TEXTS.storageLimited}
        checked={values.storageLimited}
        disabled={disabled}
        onToggle={(storageLimited) => change({ storageLimited })}
        hintWhenOff={LIMIT_TEXTS.noStorageLimit}
      >
        {numberField('storageLimitMb', LIMIT_TEXTS.storageLimitLabel, LIMIT_TEXTS.storageLimitHelp, 'decimal')}
      </OptionalSetting>
      <OptionalSetting
        name="files_limited"
        label={LIMIT_TEXTS.filesLimited}
        checked={values.filesLimited}
        disabled={disabled}
        onToggle={(filesLimited) => change({ filesLimited })}
        hintWhenOff={LIMIT_TEXTS.noFileLimit}
      >
        {numberField('fileLimit', LIMIT_TEXTS.fileLimitLabel, LIMIT_TEXTS.storageLimitHelp, 'numeric')}
      </OptionalSetting>
      <OptionalSetting
        name="delete_after_days"
        label={LIMIT_TEXTS.retentionOn}
        checked={values.deleteAfterDays}
        disabled={disabled}
        onToggle={(deleteAfterDays) => change({ deleteAfterDays })}
        hintWhenOff={LIMIT_TEXTS.retentionOff}
      >
        {numberField('retentionDays', LIMIT_TEXTS.retentionLabel, LIMIT_TEXTS.retentionHelp, 'numeric')}
      </OptionalSetting>
    </Stack>
  );
}
