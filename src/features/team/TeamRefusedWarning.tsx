// The warning when this browser refused a folder's signed member list (TEAM_MANIFEST_INVALID): it
// names the members the server listed without a signature, and says that nothing is signed or
// sealed for the folder from here. Retry fetches and checks the list again.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { TEAM_TEXTS as T } from '../../lib/userTexts.ts';
import type { RefusedTeam } from './teamSlice.ts';

export function TeamRefusedWarning({ refusal, onRetry }: { refusal: RefusedTeam; onRetry(): void }) {
  return (
    <Alert
      severity="warning"
      role="alert"
      data-testid="team-refused"
      action={
        <Button color="inherit" onClick={onRetry}>
          {T.retry}
        </Button>
      }
    >
      <AlertTitle>{T.refusedTitle}</AlertTitle>
      <Typography variant="body2">{T.refusedBody}</Typography>
      {refusal.unlisted.length > 0 && (
        <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>
          {T.refusedUnlisted(refusal.unlisted.map((member) => member.username).join(', '))}
        </Typography>
      )}
      <Typography variant="body2" sx={{ mt: 1 }}>
        {T.refusedReason(refusal.reason)}
      </Typography>
    </Alert>
  );
}
