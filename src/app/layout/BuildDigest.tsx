import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { BuildIdentityState } from '../buildIdentity.ts';

export const BUILD_DIGEST_TEXTS = {
  label: 'Build digest:',
  loading: 'Reading the build digest...',
  noServiceWorker: 'Not available: this page does not run from an installed copy of the app (no service worker controls it).',
  failed: (code: string) => `Not available: the service worker could not describe its build (${code}).`,
  mismatched: (count: number, names: string) =>
    `${count} cached ${count === 1 ? 'file differs' : 'files differ'} from the build's list of digests: ${names}. Do not trust this copy of the app.`,
} as const;

/**
 * The SHA-256 build digest of a service worker's build (buildIdentity.ts), written out in full so
 * a person can compare it with a published one or with `npm run verify-site`.
 */
export function BuildDigest({ state, id }: { state: BuildIdentityState; id?: string }) {
  return (
    <Box id={id} sx={{ minWidth: 0 }}>
      <Typography variant="body2" component="span" sx={{ mr: 1 }}>
        {BUILD_DIGEST_TEXTS.label}
      </Typography>
      {state.status === 'ready' ? (
        <Box
          component="code"
          data-testid="build-digest"
          sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem', overflowWrap: 'anywhere' }}
        >
          {state.identity.buildDigest}
        </Box>
      ) : (
        <Typography variant="body2" component="span">
          {state.status === 'loading'
            ? BUILD_DIGEST_TEXTS.loading
            : state.code === 'NO_SERVICE_WORKER'
              ? BUILD_DIGEST_TEXTS.noServiceWorker
              : BUILD_DIGEST_TEXTS.failed(state.code)}
        </Typography>
      )}
      {state.status === 'ready' && state.identity.mismatchedFiles.length > 0 && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {BUILD_DIGEST_TEXTS.mismatched(state.identity.mismatchedFiles.length, state.identity.mismatchedFiles.join(', '))}
        </Alert>
      )}
    </Box>
  );
}
