// Storage texts of the admin screens (beyond the spec): the folder form's limits and
// retention, the dashboard's storage display, the files screen's unfinished uploads and retention.
import { formatBytes } from '../formatBytes.ts';

const plural = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;
const size = (bytes: number) => formatBytes(bytes, 'oneDecimal');
/** A size that never breaks between number and unit (the dashboard's narrow Storage column). */
const unbroken = (bytes: number) => size(bytes).replace(' ', '\u00a0');

export const LIMIT_TEXTS = {
  sectionTitle: 'Storage and retention',
  sectionIntro: 'Bounds what this folder\'s upload link can store. Files and unfinished uploads both count.',
  serverDefaults: 'New folders get the server\'s limits.',
  storageLimited: 'Limit the storage',
  storageLimitLabel: 'Storage limit (MB)',
  storageLimitHelp: 'Uploads that would pass it are refused.',
  noStorageLimit: 'No storage limit: the link can fill the server\'s disk.',
  filesLimited: 'Limit the number of files',
  fileLimitLabel: 'Maximum number of files',
  noFileLimit: 'No file limit.',
  retentionOn: 'Delete files automatically',
  retentionLabel: 'Delete files after (days)',
  retentionHelp: 'Counted from each file\'s upload. Deleted files cannot be recovered.',
  retentionOff: 'Files are kept until you delete them.',
  invalidMegabytes: 'Enter a size in MB (more than 0).',
  invalidFileCount: 'Enter a whole number of files (at least 1).',
  invalidDays: 'Enter a whole number of days (at least 1).',
} as const;

export const STORAGE_TEXTS = {
  title: 'Storage',
  loading: 'Loading storage...',
  loadFailed: 'Storage figures could not be loaded.',
  /** The admin's folders together. */
  total: (bytes: number, files: number, folders: number) =>
    `${size(bytes)} in ${plural(files, 'file', 'files')} across ${plural(folders, 'folder', 'folders')}`,
  totalLabel: 'Your folders hold',
  freeLabel: 'Free on the server\'s disk',
  free: (freeBytes: number, reserveBytes: number) => `${size(freeBytes)} (${size(reserveBytes)} of it kept free for the server)`,
  noLocalDisk: 'Files are kept in object storage (S3): no local disk to watch.',
  lowSpace: 'Uploads are refused: the disk is down to its reserve. Delete files or free space on the server.',
  folderColumn: 'Storage',
  /** One folder's bytes against its limit. */
  bytesOf: (used: number, limit: number | null) => (limit === null ? `${unbroken(used)} (no limit)` : `${unbroken(used)} of ${unbroken(limit)}`),
  filesOf: (used: number, limit: number | null) =>
    limit === null ? plural(used, 'file', 'files') : `${used.toLocaleString()} of ${plural(limit, 'file', 'files')}`,
  full: 'Full: uploads are refused',
  nearlyFull: 'Nearly full',
  usageBarLabel: (title: string) => `Storage used by ${title}`,
} as const;

export const UNFINISHED_TEXTS = {
  title: 'Unfinished uploads',
  intro: 'Uploads that started but were not completed. They hold space until they finish, you cancel them, or the server removes them once no bytes have arrived for a while.',
  empty: 'No unfinished uploads.',
  loading: 'Loading unfinished uploads...',
  held: (received: number, total: number) => `${formatBytes(received, 'oneDecimal')} of ${formatBytes(total, 'oneDecimal')} received`,
  lastActivity: (when: string) => `last activity ${when}`,
  cancel: 'Cancel',
  cancelLabel: (name: string) => `Cancel the upload of ${name}`,
  confirmTitle: 'Cancel this upload?',
  confirm: (name: string) => `The bytes received so far for "${name}" are deleted now. The uploader would have to send the file again.`,
  confirmAction: 'Cancel Upload',
  keep: 'Keep',
  cancelled: (name: string) => `Upload of "${name}" cancelled.`,
} as const;

export const RETENTION_TEXTS = {
  /** Under the files screen's title. */
  policy: (days: number) => `Files are deleted ${plural(days, 'day', 'days')} after their upload.`,
  /** Beside a file's upload time. */
  deletedOn: (when: string) => `deleted on ${when}`,
} as const;
