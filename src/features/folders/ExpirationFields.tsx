import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { ExpiryDateField, WholeNumberField } from '../../app/forms/index.ts';
import { FOLDER_PAGE_MESSAGES as messages } from '../../lib/userTexts.ts';
import type { ExpirationMode, FolderFormErrors, FolderFormValues } from './folderForm.ts';

const MODES: ReadonlyArray<{ mode: ExpirationMode; label: MessageDescriptor }> = [
  { mode: 'none', label: messages.neverExpires },
  { mode: 'date', label: messages.onDate },
  { mode: 'days', label: messages.afterDays },
];

interface ExpirationFieldsProps {
  values: FolderFormValues;
  errors: FolderFormErrors;
  disabled: boolean;
  onModeChange(mode: ExpirationMode): void;
  onChange(changes: Partial<FolderFormValues>): void;
}

/** The expiration mode selector (none, date, days) and the one field the chosen mode needs. */
export function ExpirationFields({ values, errors, disabled, onModeChange, onChange }: ExpirationFieldsProps) {
  const intl = useIntl();
  const labelId = useId();
  return (
    <Stack spacing={2}>
      <FormControl disabled={disabled}>
        <FormLabel id={labelId} sx={{ fontWeight: 600, color: 'text.primary', '&.Mui-focused': { color: 'text.primary' } }}>
          {intl.formatMessage(messages.expiration)}
        </FormLabel>
        <RadioGroup
          row
          aria-labelledby={labelId}
          name="expiration_mode"
          value={values.expirationMode}
          onChange={(event) => onModeChange(event.target.value as ExpirationMode)}
        >
          {MODES.map(({ mode, label }) => (
            <FormControlLabel key={mode} value={mode} control={<Radio />} label={intl.formatMessage(label)} />
          ))}
        </RadioGroup>
      </FormControl>
      {values.expirationMode === 'date' && (
        <ExpiryDateField
          name="expiration_date"
          value={values.expirationDate}
          withSeconds
          disabled={disabled}
          error={errors.expirationDate}
          helperText={intl.formatMessage(messages.dateHint)}
          onChange={(expirationDate) => onChange({ expirationDate })}
        />
      )}
      {values.expirationMode === 'days' && (
        <WholeNumberField
          label={intl.formatMessage(messages.days)}
          name="expires_in_days"
          value={values.expiresInDays}
          disabled={disabled}
          error={errors.expiresInDays}
          helperText={intl.formatMessage(messages.daysHint)}
          onChange={(expiresInDays) => onChange({ expiresInDays })}
        />
      )}
    </Stack>
  );
}
