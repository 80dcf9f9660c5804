import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSyncExternalStore } from 'react';
import { useBuildIdentity, type BuildIdentityState } from '../../app/buildIdentity.ts';
import { BuildDigest } from '../../app/layout/BuildDigest.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';

const hasServiceWorkers = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

/** The service worker controlling this page, if any (none on a development server or a hard reload). */
function controllingWorker(): ServiceWorker | null {
  return hasServiceWorkers() ? navigator.serviceWorker.controller : null;
}

function subscribeController(listener: () => void): () => void {
  if (!hasServiceWorkers()) return () => undefined;
  // A first visit becomes controlled once the new worker claims it; an accepted update swaps it.
  navigator.serviceWorker.addEventListener('controllerchange', listener);
  return () => navigator.serviceWorker.removeEventListener('controllerchange', listener);
}

function useControllingWorker(): ServiceWorker | null {
  return useSyncExternalStore(subscribeController, controllingWorker, () => null);
}

/**
 * About: the version and build digest of the code this installed copy runs, and what comparing
 * the digest proves (docs/security.md, "The code the server serves").
 */
export function AboutPage({ worker }: { worker?: ServiceWorker | null }) {
  const controller = useControllingWorker();
  const identity = useBuildIdentity(worker === undefined ? controller : worker);
  return (
    <>
      <PageHeader title="About Sealdrop" subtitle="End-to-end encrypted file exchange: files are encrypted in your browser before they are uploaded." />
      <Paper component="section" aria-labelledby="about-build-heading" variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={1.5}>
          <Typography variant="h2" id="about-build-heading" sx={{ fontSize: '1.25rem' }}>
            The code you are running
          </Typography>
          <Typography variant="body2">Version: {versionText(identity)}</Typography>
          <BuildDigest state={identity} />
          {identity.status === 'ready' && (
            <Typography variant="body2">
              {checkedText(identity.identity.checkedFiles, identity.identity.listedFiles, identity.identity.mismatchedFiles.length)}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            The build digest is the SHA-256 of the list of every file of the build this app was installed with; the app checks its cached files
            against that list. Compare it with the digest your organisation publishes for this version, or run{' '}
            <code>npm run verify-site -- {typeof window === 'undefined' ? 'https://this-server' : window.location.origin}</code> from a build of
            the same version. The installed app keeps this code until you accept an update; a new version shows its digest before you do.
          </Typography>
          <Typography variant="body2" color="text.secondary">
            A matching digest tells you about your copy only: a server can send different code to other people, and the first visit trusts
            what the server sent then.
          </Typography>
        </Stack>
      </Paper>
    </>
  );
}

function checkedText(checked: number, listed: number, mismatched: number): string {
  const matching = checked - mismatched;
  return `Checked just now: ${matching} of the ${checked} cached files match the list (${listed} files listed; the others, such as source maps and the service worker itself, are not cached).`;
}

function versionText(identity: BuildIdentityState): string {
  return identity.status === 'ready' ? identity.identity.version : identity.status === 'loading' ? '...' : 'unknown';
}
