import Alert, { type AlertColor } from '@mui/material/Alert';

export interface Feedback {
  severity: AlertColor;
  message: string;
}

/** The inline result line of a settings form (errors in red, info in blue, success in green). */
export function FormFeedback({ feedback }: { feedback: Feedback | null }) {
  if (!feedback) return null;
  return (
    <Alert severity={feedback.severity} role={feedback.severity === 'error' ? 'alert' : 'status'}>
      {feedback.message}
    </Alert>
  );
}
