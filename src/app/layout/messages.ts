// The app shell's own texts: the frame's notices (offline, update), the 404 screen, the back link,
// the shared copy button and delete confirmation, the build digest.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const SHELL_MESSAGES = defineMessages({
  backToDashboard: { id: 'app.backLink.dashboard', defaultMessage: 'Back to Dashboard' },
  offline: {
    id: 'app.offline.notice',
    defaultMessage: 'You are offline. Anything that needs the server waits; uploads pause and continue by themselves when the connection is back.',
  },
  updateReady: { id: 'app.update.ready', defaultMessage: 'A new version of Sealdrop is ready.' },
  updateReload: { id: 'app.update.reload', defaultMessage: 'Reload to update' },
  notFoundText: { id: 'app.notFound.text', defaultMessage: 'The page you are looking for does not exist.' },
  goHome: { id: 'app.notFound.goHome', defaultMessage: 'Go Home' },
  copied: { id: 'app.copy.copied', defaultMessage: 'Copied!' },
  deleteCancel: { id: 'app.confirmDelete.cancel', defaultMessage: 'Cancel' },
  deleteConfirm: { id: 'app.confirmDelete.confirm', defaultMessage: 'Delete' },
  deleting: { id: 'app.confirmDelete.deleting', defaultMessage: 'Deleting...' },
});

export const BUILD_DIGEST_MESSAGES = defineMessages({
  label: { id: 'app.buildDigest.label', defaultMessage: 'Build digest:' },
  loading: { id: 'app.buildDigest.loading', defaultMessage: 'Reading the build digest...' },
  noServiceWorker: {
    id: 'app.buildDigest.noServiceWorker',
    defaultMessage: 'Not available: this page does not run from an installed copy of the app (no service worker controls it).',
  },
  failed: { id: 'app.buildDigest.failed', defaultMessage: 'Not available: the service worker could not describe its build ({code}).', description: 'code: an error code such as TIMED_OUT' },
  mismatched: {
    id: 'app.buildDigest.mismatched',
    defaultMessage:
      "{count, plural, one {# cached file differs} other {# cached files differ}} from the build's list of digests: {names}. Do not trust this copy of the app.",
    description: 'names: the file names, separated by commas',
  },
});
