import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import { useSyncExternalStore } from 'react';
import { FormattedMessage } from 'react-intl';
import { SHELL_MESSAGES } from './messages.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own view of the network: 'offline' is reliable, 'online' only means "maybe". */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/**
 * Shown on every page while the browser is offline. The shell itself opens offline
 * (workers/sw.ts); anything that needs the server waits, and a running upload pauses and continues
 * by itself when the network is back (docs/upload.md, "Laptop realities").
 */
export function OfflineNotice() {
  const online = useOnline();
  if (online) return null;
  return (
    <Container maxWidth="lg" sx={{ pt: 2 }}>
      <Alert severity="warning" role="status" data-testid="offline-notice">
        <FormattedMessage {...SHELL_MESSAGES.offline} />
      </Alert>
    </Container>
  );
}
