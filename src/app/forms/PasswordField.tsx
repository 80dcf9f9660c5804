// The one password input of every form (sign-in, profile, keys, links, gates): a masked field
// whose error, when there is one, replaces its helper text.
import TextField from '@mui/material/TextField';
import type { InputHTMLAttributes } from 'react';

export interface PasswordFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  /**
   * 'current-password' (the default): the account's password, which a password manager may fill;
   * 'new-password': one being chosen; 'off': a password that is not the account's (a link's, a backup's).
   */
  autoComplete?: 'current-password' | 'new-password' | 'off';
  disabled?: boolean;
  autoFocus?: boolean;
  /** The field's id, when something else refers to it (an error link with a helper text). */
  id?: string;
  /** Marks the field invalid; a string is also shown in place of the helper text. */
  error?: string | boolean | null;
  helperText?: string;
  /** Attributes of the input element itself (an error link's aria attributes, `required`). */
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  /**
   * Shown in clear, in a monospace face that keeps look-alike characters apart: for a password the
   * app suggests, which the user reads and passes on.
   */
  revealed?: boolean;
  /** Takes the whole width of its container. */
  fullWidth?: boolean;
}

const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

export function PasswordField({ label, name, value, onChange, autoComplete = 'current-password', disabled, autoFocus, id, error, helperText, inputProps, revealed = false, fullWidth }: PasswordFieldProps) {
  const message = typeof error === 'string' ? error : undefined;
  const htmlInput = revealed ? { ...inputProps, style: MONOSPACE } : inputProps;
  return (
    <TextField
      id={id}
      label={label}
      name={name}
      type={revealed ? 'text' : 'password'}
      spellCheck={revealed ? false : undefined}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      value={value}
      disabled={disabled}
      error={Boolean(error)}
      helperText={message ?? helperText}
      onChange={(event) => onChange(event.target.value)}
      slotProps={htmlInput ? { htmlInput } : undefined}
      fullWidth={fullWidth}
    />
  );
}
