// What a member is told while the organisation recovery policy is on (docs/security.md,
// "Organisation recovery"): that organisation admins can restore their access and so read their
// files, with the organisation key's fingerprint as this browser computes it from the key the
// server handed over (an admin can read theirs aloud to compare), and, in the profile, whether
// the copy of their key is stored.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Typography from '@mui/material/Typography';
import { useMemberRecoveryStateQuery } from '../../api/orgRecoveryApi.ts';
import { ORG_RECOVERY_TEXTS as T } from '../../lib/userTexts.ts';
import { useKeyFingerprint } from '../organisation/index.ts';

export function OrgRecoveryNotice({ showStored = false }: { showStored?: boolean }) {
  const state = useMemberRecoveryStateQuery().data;
  const fingerprint = useKeyFingerprint(state?.key?.public_key_spki ?? null);
  if (!state?.key) return null;
  return (
    <Alert severity="warning" data-testid="org-recovery-notice">
      <AlertTitle>{T.noticeTitle}</AlertTitle>
      <Typography variant="body2">{T.noticeBody}</Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {T.fingerprintLabel}
      </Typography>
      <Typography variant="body2" component="code" data-testid="org-key-fingerprint" sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
        {fingerprint.kind === 'ready' ? fingerprint.fingerprint : ''}
      </Typography>
      {showStored && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="org-recovery-stored">
          {state.stored ? T.copyStored : T.copyMissing}
        </Typography>
      )}
    </Alert>
  );
}
