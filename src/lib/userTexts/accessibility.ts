// Texts only screen readers hear (polite live regions) and the phone layouts' own labels.
// Progress is announced in steps (transferAnnouncement.ts), so these read as short sentences.

export const ANNOUNCEMENTS = {
  uploadStarted: (files: number) => `Upload started: ${files} ${files === 1 ? 'file' : 'files'}.`,
  uploadProgress: (percent: number) => `Uploading: ${percent}%.`,
  downloadStarted: (label: string) => `Downloading ${label}.`,
  downloadProgress: (label: string, percent: number) => `Downloading ${label}: ${percent}%.`,
  downloadFinished: (label: string) => `${label} downloaded.`,
  downloadFailed: (label: string) => `Download of ${label} failed.`,
  zipProgress: (percent: number) => `Preparing the ZIP: ${percent}%.`,
  folderSaveProgress: (percent: number) => `Saving to the folder: ${percent}%.`,
} as const;

/**
 * Each screen's document title (WCAG 2.4.2), by route: what a screen reader says on arrival and
 * what a tab or the history shows. The product's name comes last, so the screen is heard first.
 */
export const PAGE_TITLES: Readonly<Record<string, string>> = {
  '/login': 'Admin Login',
  '/dashboard': 'Admin Dashboard',
  '/activity': 'Activity',
  '/folders/new': 'Create New Upload Folder',
  '/folders/edit/$folderId': 'Edit Upload Folder',
  '/folders/view/$folderId': 'Files in Folder',
  '/profile': 'My Profile & Settings',
  '/upload/$linkToken': 'Secure File Upload',
  '/download/$linkToken': 'Secure File Download',
  '/about': 'About Sealdrop',
  '/members': 'Members',
  '/welcome': 'Finish setting up your account',
  '/invite/$token': 'Join Sealdrop',
};
export const NOT_FOUND_TITLE = '404 Not Found';
export const PRODUCT_NAME = 'Sealdrop';
export const documentTitle = (screen: string | null) => (screen ? `${screen} · ${PRODUCT_NAME}` : PRODUCT_NAME);

/** The phone layouts' sort control (the table's column headers are not shown there). */
export const SORT_LABELS = {
  control: 'Sort by',
  ascending: 'ascending',
  descending: 'descending',
} as const;

/** The files tree on a narrow screen: the date columns' names, now beside the dates under each name. */
export const COMPACT_TREE_LABELS = {
  uploaded: 'Uploaded',
  lastDownloaded: 'Last Downloaded',
} as const;

/** The dashboard's folder cards (phone layout): the table's column names as labels. */
export const FOLDER_CARD_LABELS = {
  created: 'Created',
  expires: 'Expires',
  lastUpload: 'Last Upload',
  status: 'Status',
  security: 'Security',
} as const;
