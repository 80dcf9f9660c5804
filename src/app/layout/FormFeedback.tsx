import Alert, { type AlertColor } from '@mui/material/Alert';

export interface Feedback {
  severity: AlertColor;
  message: string;
}

/** The inline result line of a settings form (errors in red, info in blue, success in green). */
export function FormFeedback({ feedback, id }: { feedback: Feedback | null; /** For the field the message is about (useFieldErrorLink). */ id?: string }) {
  if (!feedback) return null;
  return (
    <Alert id={id} severity={feedback.severity} role={feedback.severity === 'error' ? 'alert' : 'status'}>
      {feedback.message}
    </Alert>
  );
}
