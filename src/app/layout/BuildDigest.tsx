import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { t, textsOf } from '../../i18n/language.ts';
import { withTexts } from '../../lib/userTexts/withTexts.ts';
import type { BuildIdentityState } from '../buildIdentity.ts';
import { BUILD_DIGEST_MESSAGES as M } from './messages.ts';

export const BUILD_DIGEST_TEXTS = withTexts(textsOf({ label: M.label, loading: M.loading, noServiceWorker: M.noServiceWorker }), {
  failed: (code: string) => t(M.failed, { code }),
  mismatched: (count: number, names: string) => t(M.mismatched, { count, names }),
});

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
