// The Activity screen's own texts and the summary of an entry's facts (the kinds' labels and the
// screen's titles are in src/lib/userTexts/organisation.ts).
import { defineMessages } from '../../i18n/defineMessages.ts';

export const ACTIVITY_MESSAGES = defineMessages({
  loading: { id: 'activity.list.loading', defaultMessage: 'Loading activity...' },
  folder: { id: 'activity.filters.folder', defaultMessage: 'Folder' },
  allFolders: { id: 'activity.filters.allFolders', defaultMessage: 'All folders' },
  kind: { id: 'activity.filters.kind', defaultMessage: 'Kind', description: 'Filter by the kind of entry (sign-in, upload, ...)' },
  allKinds: { id: 'activity.filters.allKinds', defaultMessage: 'All kinds' },
  from: { id: 'activity.filters.from', defaultMessage: 'From', description: 'First day of the period shown' },
  to: { id: 'activity.filters.to', defaultMessage: 'To', description: 'Last day of the period shown' },

  title: { id: 'activity.summary.title', defaultMessage: '"{title}"', description: "The folder's title in quotation marks" },
  files: { id: 'activity.summary.files', defaultMessage: '{count, plural, one {# file} other {# files}}' },
  uploader: { id: 'activity.summary.uploader', defaultMessage: 'by {email}', description: 'Who uploaded: an e-mail address' },
  changed: { id: 'activity.summary.changed', defaultMessage: 'changed: {settings}', description: 'settings: the names of the changed settings, comma-separated' },
  secondFactor: { id: 'activity.summary.secondFactor', defaultMessage: 'with 2FA', description: 'Signed in with a second factor' },
  key: { id: 'activity.summary.key', defaultMessage: 'key {fingerprint}', description: "fingerprint: a key's fingerprint" },
});
