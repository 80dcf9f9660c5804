// Errors shown apart from their field (an alert under a form, e.g. 'Link password required.') are
// tied to the field, so a screen reader reads the message when the field is focused and knows the
// field is invalid (WCAG 1.3.1, 3.3.1). Fields whose error is their helper text get this from MUI.
import { useId } from 'react';

export interface FieldErrorLink {
  /** The id for the element that shows the message. */
  messageId: string;
  /** The field's id (MUI TextField `id`), needed only when the field also has a helper text. */
  fieldId: string;
  /** Spread into the input's props (MUI: slotProps.htmlInput). Empty while there is no error. */
  inputProps: { 'aria-describedby'?: string; 'aria-invalid'?: true };
}

/**
 * `withHelperText`: the field has a helper text of its own, which stays in its description (MUI
 * names it `${id}-helper-text`; give the TextField `id={fieldId}`).
 */
export function useFieldErrorLink(hasError: boolean, { withHelperText = false } = {}): FieldErrorLink {
  const messageId = useId();
  const fieldId = useId();
  const describedBy = withHelperText ? `${messageId} ${fieldId}-helper-text` : messageId;
  return { messageId, fieldId, inputProps: hasError ? { 'aria-describedby': describedBy, 'aria-invalid': true } : {} };
}
