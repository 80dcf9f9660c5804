// The inputs of a deadline, shared by every form that sets one (a folder's expiration, a link's
// expiry, limits in days or counts): a local date and time, or a whole number.
import TextField from '@mui/material/TextField';
import { FORM_TEXTS } from '../../lib/userTexts.ts';

interface FieldProps {
  name: string;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  /** The problem with the value; shown in place of the helper text. */
  error?: string | undefined;
  helperText?: string;
  /** The widest the field grows on a wide screen (it takes the whole width on a phone). */
  maxWidth?: number;
}

/** A moment in the user's local time (an <input type="datetime-local">); `withSeconds`: to the second, not the minute. */
export function ExpiryDateField({ name, value, onChange, disabled, error, helperText = ' ', maxWidth = 320, label = FORM_TEXTS.expirationDate, withSeconds = false }: FieldProps & { label?: string; withSeconds?: boolean }) {
  return (
    <TextField
      label={label}
      name={name}
      type="datetime-local"
      value={value}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error ?? helperText}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: withSeconds ? { step: 1 } : {} }}
      sx={{ maxWidth: { sm: maxWidth } }}
    />
  );
}

/** A whole number from `min` (1 unless given) to `max` (no bound unless given). */
export function WholeNumberField({ name, value, onChange, disabled, error, helperText = ' ', maxWidth = 320, label, min = 1, max }: FieldProps & { label: string; min?: number; max?: number }) {
  return (
    <TextField
      label={label}
      name={name}
      type="number"
      value={value}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error ?? helperText}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { min, max, step: 1, inputMode: 'numeric' } }}
      sx={{ maxWidth: { sm: maxWidth } }}
    />
  );
}
