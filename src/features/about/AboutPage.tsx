import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSyncExternalStore } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useBuildIdentity, type BuildIdentityState } from '../../app/buildIdentity.ts';
import { BuildDigest } from '../../app/layout/BuildDigest.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { ABOUT_MESSAGES as M } from './messages.ts';

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
  const intl = useIntl();
  const controller = useControllingWorker();
  const identity = useBuildIdentity(worker === undefined ? controller : worker);
  const command = `npm run verify-site -- ${typeof window === 'undefined' ? 'https://this-server' : window.location.origin}`;
  return (
    <>
      <PageHeader title={intl.formatMessage(M.title)} subtitle={intl.formatMessage(M.subtitle)} />
      <Paper component="section" aria-labelledby="about-build-heading" variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={1.5}>
          <Typography variant="h2" id="about-build-heading" sx={{ fontSize: '1.25rem' }}>
            <FormattedMessage {...M.codeHeading} />
          </Typography>
          <Typography variant="body2">
            <FormattedMessage {...M.version} values={{ version: versionText(intl, identity) }} />
          </Typography>
          <BuildDigest state={identity} />
          {identity.status === 'ready' && (
            <Typography variant="body2">
              <FormattedMessage
                {...M.checked}
                values={{
                  matching: identity.identity.checkedFiles - identity.identity.mismatchedFiles.length,
                  checked: identity.identity.checkedFiles,
                  listed: identity.identity.listedFiles,
                }}
              />
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            <FormattedMessage {...M.digestExplained} values={{ command: <code>{command}</code> }} />
          </Typography>
          <Typography variant="body2" color="text.secondary">
            <FormattedMessage {...M.digestLimits} />
          </Typography>
        </Stack>
      </Paper>
    </>
  );
}

function versionText(intl: IntlShape, identity: BuildIdentityState): string {
  if (identity.status === 'ready') return identity.identity.version;
  return intl.formatMessage(identity.status === 'loading' ? M.versionLoading : M.versionUnknown);
}
