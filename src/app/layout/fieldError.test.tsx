// @vitest-environment jsdom
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFieldErrorLink } from './fieldError.ts';

afterEach(cleanup);

function PasswordForm({ error, helper }: { error: string | null; helper?: string }) {
  const link = useFieldErrorLink(error !== null, { withHelperText: helper !== undefined });
  return (
    <form>
      <TextField id={link.fieldId} label="Password" helperText={helper} slotProps={{ htmlInput: link.inputProps }} />
      {error && <Alert id={link.messageId}>{error}</Alert>}
    </form>
  );
}

describe('useFieldErrorLink', () => {
  it('ties a message shown apart from the field to it: described by the message, marked invalid', () => {
    render(<PasswordForm error="Link password required." />);
    const field = screen.getByLabelText('Password');
    expect(field).toHaveAccessibleDescription('Link password required.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps the field’s own helper text in its description', () => {
    render(<PasswordForm error="Password required to generate and encrypt keys." helper="Needed to encrypt the new private key." />);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password required to generate and encrypt keys. Needed to encrypt the new private key.');
  });

  it('without an error the field is neither described by a message nor invalid', () => {
    render(<PasswordForm error={null} helper="Needed to encrypt the new private key." />);
    const field = screen.getByLabelText('Password');
    expect(field).toHaveAccessibleDescription('Needed to encrypt the new private key.');
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });
});
