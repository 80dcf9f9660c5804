// Storage texts of the admin screens (beyond the spec): the folder form's limits and
// retention, the dashboard's storage display, the files screen's unfinished uploads and retention.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';
import { formatBytes } from '../formatBytes.ts';
import { withTexts } from './withTexts.ts';

const size = (bytes: number) => formatBytes(bytes, 'oneDecimal');
/** A size that never breaks between number and unit (the dashboard's narrow Storage column). */
const unbroken = (bytes: number) => size(bytes).replace(' ', '\u00a0');

const limits = defineMessages({
  sectionTitle: { id: 'storage.limits.sectionTitle', defaultMessage: 'Storage and retention' },
  sectionIntro: { id: 'storage.limits.sectionIntro', defaultMessage: "Bounds what this folder's upload link can store. Files and unfinished uploads both count." },
  serverDefaults: { id: 'storage.limits.serverDefaults', defaultMessage: "New folders get the server's limits." },
  storageLimited: { id: 'storage.limits.storageLimited', defaultMessage: 'Limit the storage' },
  storageLimitLabel: { id: 'storage.limits.storageLimitLabel', defaultMessage: 'Storage limit (MB)' },
  storageLimitHelp: { id: 'storage.limits.storageLimitHelp', defaultMessage: 'Uploads that would pass it are refused.' },
  noStorageLimit: { id: 'storage.limits.noStorageLimit', defaultMessage: "No storage limit: the link can fill the server's disk." },
  filesLimited: { id: 'storage.limits.filesLimited', defaultMessage: 'Limit the number of files' },
  fileLimitLabel: { id: 'storage.limits.fileLimitLabel', defaultMessage: 'Maximum number of files' },
  noFileLimit: { id: 'storage.limits.noFileLimit', defaultMessage: 'No file limit.' },
  retentionOn: { id: 'storage.limits.retentionOn', defaultMessage: 'Delete files automatically' },
  retentionLabel: { id: 'storage.limits.retentionLabel', defaultMessage: 'Delete files after (days)' },
  retentionHelp: { id: 'storage.limits.retentionHelp', defaultMessage: "Counted from each file's upload. Deleted files cannot be recovered." },
  retentionOff: { id: 'storage.limits.retentionOff', defaultMessage: 'Files are kept until you delete them.' },
  invalidMegabytes: { id: 'storage.limits.invalidMegabytes', defaultMessage: 'Enter a size in MB (more than 0).' },
  invalidFileCount: { id: 'storage.limits.invalidFileCount', defaultMessage: 'Enter a whole number of files (at least 1).' },
  invalidDays: { id: 'storage.limits.invalidDays', defaultMessage: 'Enter a whole number of days (at least 1).' },
});

export const LIMIT_TEXTS = textsOf(limits);

const storage = defineMessages({
  title: { id: 'storage.summary.title', defaultMessage: 'Storage' },
  loading: { id: 'storage.summary.loading', defaultMessage: 'Loading storage...' },
  loadFailed: { id: 'storage.summary.loadFailed', defaultMessage: 'Storage figures could not be loaded.' },
  total: {
    id: 'storage.summary.total',
    defaultMessage: '{size} in {files, plural, one {# file} other {# files}} across {folders, plural, one {# folder} other {# folders}}',
    description: 'size: a formatted size such as 95.0 MB',
  },
  totalLabel: { id: 'storage.summary.totalLabel', defaultMessage: 'Your folders hold' },
  freeLabel: { id: 'storage.summary.freeLabel', defaultMessage: "Free on the server's disk" },
  free: { id: 'storage.summary.free', defaultMessage: '{free} ({reserve} of it kept free for the server)', description: 'free, reserve: formatted sizes' },
  noLocalDisk: { id: 'storage.summary.noLocalDisk', defaultMessage: 'Files are kept in object storage (S3): no local disk to watch.' },
  lowSpace: { id: 'storage.summary.lowSpace', defaultMessage: 'Uploads are refused: the disk is down to its reserve. Delete files or free space on the server.' },
  folderColumn: { id: 'storage.folder.column', defaultMessage: 'Storage', description: "The dashboard table's column of each folder's storage" },
  bytesUnlimited: { id: 'storage.folder.bytesUnlimited', defaultMessage: '{used} (no limit)', description: 'used: a formatted size' },
  bytesOf: { id: 'storage.folder.bytesOf', defaultMessage: '{used} of {limit}', description: 'used, limit: formatted sizes' },
  filesUnlimited: { id: 'storage.folder.filesUnlimited', defaultMessage: '{used, plural, one {# file} other {# files}}' },
  filesOf: { id: 'storage.folder.filesOf', defaultMessage: '{used, number} of {limit, plural, one {# file} other {# files}}' },
  full: { id: 'storage.folder.full', defaultMessage: 'Full: uploads are refused' },
  nearlyFull: { id: 'storage.folder.nearlyFull', defaultMessage: 'Nearly full' },
  usageBarLabel: { id: 'storage.folder.usageBarLabel', defaultMessage: 'Storage used by {title}' },
});

export const STORAGE_TEXTS = withTexts(
  textsOf({
    title: storage.title,
    loading: storage.loading,
    loadFailed: storage.loadFailed,
    totalLabel: storage.totalLabel,
    freeLabel: storage.freeLabel,
    noLocalDisk: storage.noLocalDisk,
    lowSpace: storage.lowSpace,
    folderColumn: storage.folderColumn,
    full: storage.full,
    nearlyFull: storage.nearlyFull,
  }),
  {
    /** The admin's folders together. */
    total: (bytes: number, files: number, folders: number) => t(storage.total, { size: size(bytes), files, folders }),
    free: (freeBytes: number, reserveBytes: number) => t(storage.free, { free: size(freeBytes), reserve: size(reserveBytes) }),
    /** One folder's bytes against its limit. */
    bytesOf: (used: number, limit: number | null) =>
      limit === null ? t(storage.bytesUnlimited, { used: unbroken(used) }) : t(storage.bytesOf, { used: unbroken(used), limit: unbroken(limit) }),
    filesOf: (used: number, limit: number | null) => (limit === null ? t(storage.filesUnlimited, { used }) : t(storage.filesOf, { used, limit })),
    usageBarLabel: (title: string) => t(storage.usageBarLabel, { title }),
  },
);

const unfinished = defineMessages({
  title: { id: 'storage.unfinished.title', defaultMessage: 'Unfinished uploads' },
  intro: {
    id: 'storage.unfinished.intro',
    defaultMessage:
      'Uploads that started but were not completed. They hold space until they finish, you cancel them, or the server removes them once no bytes have arrived for a while.',
  },
  empty: { id: 'storage.unfinished.empty', defaultMessage: 'No unfinished uploads.' },
  loading: { id: 'storage.unfinished.loading', defaultMessage: 'Loading unfinished uploads...' },
  details: {
    id: 'storage.unfinished.details',
    defaultMessage: '{received} of {total} received · last activity {when}',
    description: 'received, total: formatted sizes; when: a date and time',
  },
  cancel: { id: 'storage.unfinished.cancel', defaultMessage: 'Cancel' },
  cancelLabel: { id: 'storage.unfinished.cancelLabel', defaultMessage: 'Cancel the upload of {name}' },
  confirmTitle: { id: 'storage.unfinished.confirmTitle', defaultMessage: 'Cancel this upload?' },
  confirm: {
    id: 'storage.unfinished.confirm',
    defaultMessage: 'The bytes received so far for "{name}" are deleted now. The uploader would have to send the file again.',
  },
  confirmAction: { id: 'storage.unfinished.confirmAction', defaultMessage: 'Cancel Upload' },
  keep: { id: 'storage.unfinished.keep', defaultMessage: 'Keep' },
  cancelled: { id: 'storage.unfinished.cancelled', defaultMessage: 'Upload of "{name}" cancelled.' },
});

export const UNFINISHED_TEXTS = withTexts(
  textsOf({
    title: unfinished.title,
    intro: unfinished.intro,
    empty: unfinished.empty,
    loading: unfinished.loading,
    cancel: unfinished.cancel,
    confirmTitle: unfinished.confirmTitle,
    confirmAction: unfinished.confirmAction,
    keep: unfinished.keep,
  }),
  {
    /** An unfinished upload's line under its name: the bytes held and the last activity. */
    details: (received: number, total: number, when: string) => t(unfinished.details, { received: size(received), total: size(total), when }),
    cancelLabel: (name: string) => t(unfinished.cancelLabel, { name }),
    confirm: (name: string) => t(unfinished.confirm, { name }),
    cancelled: (name: string) => t(unfinished.cancelled, { name }),
  },
);

const retention = defineMessages({
  policy: { id: 'storage.retention.policy', defaultMessage: 'Files are deleted {days, plural, one {# day} other {# days}} after their upload.' },
  deletedOn: { id: 'storage.retention.deletedOn', defaultMessage: 'deleted on {when}' },
});

export const RETENTION_TEXTS = {
  /** Under the files screen's title. */
  policy: (days: number) => t(retention.policy, { days }),
  /** Beside a file's upload time. */
  deletedOn: (when: string) => t(retention.deletedOn, { when }),
} as const;
