import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useSyncExternalStore } from 'react';
import { isTransferRunning, subscribeTransfers } from '../../lib/transferActivity.ts';
import { subscribeUpdate, waitingUpdate } from '../serviceWorkerUpdate.ts';

/**
 * "Reload to update" when a new version's service worker is waiting (registerServiceWorker.ts).
 * Not offered while an upload or download runs: reloading would interrupt it.
 */
export function UpdatePrompt() {
  const apply = useSyncExternalStore(subscribeUpdate, waitingUpdate, () => null);
  const busy = useSyncExternalStore(subscribeTransfers, isTransferRunning, () => false);
  if (apply === null || busy) return null;
  return (
    <Container maxWidth="lg" sx={{ pt: 2 }}>
      <Alert
        severity="info"
        role="status"
        data-testid="update-prompt"
        action={
          <Button color="inherit" size="small" onClick={apply}>
            Reload to update
          </Button>
        }
      >
        A new version of Sealdrop is ready.
      </Alert>
    </Container>
  );
}
