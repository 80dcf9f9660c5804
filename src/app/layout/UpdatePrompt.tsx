import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useSyncExternalStore } from 'react';
import { FormattedMessage } from 'react-intl';
import { isTransferRunning, subscribeTransfers } from '../../lib/transferActivity.ts';
import { useBuildIdentity } from '../buildIdentity.ts';
import { subscribeUpdate, waitingUpdate, waitingWorker } from '../serviceWorkerUpdate.ts';
import { BuildDigest } from './BuildDigest.tsx';
import { SHELL_MESSAGES } from './messages.ts';

/**
 * "Reload to update" when a new version's service worker is waiting (registerServiceWorker.ts).
 * Not offered while an upload or download runs: reloading would interrupt it. It shows the new
 * build's digest, so a person can compare it (with a published digest, or with `npm run
 * verify-site`) before the new code runs (docs/security.md, "The code the server serves").
 */
export function UpdatePrompt() {
  const apply = useSyncExternalStore(subscribeUpdate, waitingUpdate, () => null);
  const worker = useSyncExternalStore(subscribeUpdate, waitingWorker, () => null);
  const busy = useSyncExternalStore(subscribeTransfers, isTransferRunning, () => false);
  const identity = useBuildIdentity(apply === null ? null : worker);
  if (apply === null || busy) return null;
  return (
    <Container maxWidth="lg" sx={{ pt: 2 }}>
      <Alert
        severity="info"
        role="status"
        data-testid="update-prompt"
        action={
          <Button color="inherit" size="small" onClick={apply}>
            <FormattedMessage {...SHELL_MESSAGES.updateReload} />
          </Button>
        }
      >
        <FormattedMessage {...SHELL_MESSAGES.updateReady} />
        <BuildDigest state={identity} />
      </Alert>
    </Container>
  );
}
