// Texts only screen readers hear (polite live regions) and the phone layouts' own labels.
// Progress is announced in steps (transferAnnouncement.ts), so these read as short sentences.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';
import { withTexts } from './withTexts.ts';

const announcements = defineMessages({
  uploadStarted: { id: 'a11y.announce.uploadStarted', defaultMessage: 'Upload started: {files, plural, one {# file} other {# files}}.' },
  uploadProgress: { id: 'a11y.announce.uploadProgress', defaultMessage: 'Uploading: {percent}%.' },
  downloadStarted: { id: 'a11y.announce.downloadStarted', defaultMessage: 'Downloading {label}.', description: 'label: a file name, or a number of files' },
  downloadProgress: { id: 'a11y.announce.downloadProgress', defaultMessage: 'Downloading {label}: {percent}%.' },
  downloadFinished: { id: 'a11y.announce.downloadFinished', defaultMessage: '{label} downloaded.' },
  downloadFailed: { id: 'a11y.announce.downloadFailed', defaultMessage: 'Download of {label} failed.' },
  zipProgress: { id: 'a11y.announce.zipProgress', defaultMessage: 'Preparing the ZIP: {percent}%.' },
  folderSaveProgress: { id: 'a11y.announce.folderSaveProgress', defaultMessage: 'Saving to the folder: {percent}%.' },
});

export const ANNOUNCEMENTS = {
  uploadStarted: (files: number) => t(announcements.uploadStarted, { files }),
  uploadProgress: (percent: number) => t(announcements.uploadProgress, { percent }),
  downloadStarted: (label: string) => t(announcements.downloadStarted, { label }),
  downloadProgress: (label: string, percent: number) => t(announcements.downloadProgress, { label, percent }),
  downloadFinished: (label: string) => t(announcements.downloadFinished, { label }),
  downloadFailed: (label: string) => t(announcements.downloadFailed, { label }),
  zipProgress: (percent: number) => t(announcements.zipProgress, { percent }),
  folderSaveProgress: (percent: number) => t(announcements.folderSaveProgress, { percent }),
} as const;

const titles = defineMessages({
  login: { id: 'a11y.pageTitle.login', defaultMessage: 'Admin Login' },
  dashboard: { id: 'a11y.pageTitle.dashboard', defaultMessage: 'Admin Dashboard' },
  activity: { id: 'a11y.pageTitle.activity', defaultMessage: 'Activity' },
  newFolder: { id: 'a11y.pageTitle.newFolder', defaultMessage: 'Create New Upload Folder' },
  editFolder: { id: 'a11y.pageTitle.editFolder', defaultMessage: 'Edit Upload Folder' },
  viewFolder: { id: 'a11y.pageTitle.viewFolder', defaultMessage: 'Files in Folder' },
  profile: { id: 'a11y.pageTitle.profile', defaultMessage: 'My Profile & Settings' },
  upload: { id: 'a11y.pageTitle.upload', defaultMessage: 'Secure File Upload' },
  download: { id: 'a11y.pageTitle.download', defaultMessage: 'Secure File Download' },
  about: { id: 'a11y.pageTitle.about', defaultMessage: 'About Sealdrop' },
  members: { id: 'a11y.pageTitle.members', defaultMessage: 'Members' },
  welcome: { id: 'a11y.pageTitle.welcome', defaultMessage: 'Finish setting up your account' },
  invite: { id: 'a11y.pageTitle.invite', defaultMessage: 'Join Sealdrop' },
  notFound: { id: 'a11y.pageTitle.notFound', defaultMessage: '404 Not Found' },
  document: { id: 'a11y.pageTitle.document', defaultMessage: '{screen} · Sealdrop', description: "The browser tab's title: the screen's name, then the product's" },
});

/**
 * Each screen's document title (WCAG 2.4.2), by route: what a screen reader says on arrival and
 * what a tab or the history shows. The product's name comes last, so the screen is heard first.
 */
export const PAGE_TITLES: Readonly<Record<string, string>> = textsOf({
  '/login': titles.login,
  '/dashboard': titles.dashboard,
  '/activity': titles.activity,
  '/folders/new': titles.newFolder,
  '/folders/edit/$folderId': titles.editFolder,
  '/folders/view/$folderId': titles.viewFolder,
  '/profile': titles.profile,
  '/upload/$linkToken': titles.upload,
  '/download/$linkToken': titles.download,
  '/about': titles.about,
  '/members': titles.members,
  '/welcome': titles.welcome,
  '/invite/$token': titles.invite,
});
/** The 404 screen's title and heading, in the current language. */
export const notFoundTitle = () => t(titles.notFound);
export const PRODUCT_NAME = 'Sealdrop';
export const documentTitle = (screen: string | null) => (screen ? t(titles.document, { screen }) : PRODUCT_NAME);

const sort = defineMessages({
  control: { id: 'a11y.sort.control', defaultMessage: 'Sort by' },
  ascending: { id: 'a11y.sort.ascending', defaultMessage: '{column}, ascending', description: 'One choice of the phone layout sort control; column: a column name' },
  descending: { id: 'a11y.sort.descending', defaultMessage: '{column}, descending', description: 'One choice of the phone layout sort control; column: a column name' },
});

/** The phone layouts' sort control (the table's column headers are not shown there). */
export const SORT_LABELS = withTexts(textsOf({ control: sort.control }), {
  ascending: (column: string) => t(sort.ascending, { column }),
  descending: (column: string) => t(sort.descending, { column }),
});

const compactTree = defineMessages({
  uploaded: { id: 'a11y.compactTree.uploaded', defaultMessage: 'Uploaded' },
  lastDownloaded: { id: 'a11y.compactTree.lastDownloaded', defaultMessage: 'Last Downloaded' },
});

/** The files tree on a narrow screen: the date columns' names, now beside the dates under each name. */
export const COMPACT_TREE_LABELS = textsOf(compactTree);

const folderCard = defineMessages({
  created: { id: 'a11y.folderCard.created', defaultMessage: 'Created' },
  expires: { id: 'a11y.folderCard.expires', defaultMessage: 'Expires' },
  lastUpload: { id: 'a11y.folderCard.lastUpload', defaultMessage: 'Last Upload' },
  status: { id: 'a11y.folderCard.status', defaultMessage: 'Status' },
  security: { id: 'a11y.folderCard.security', defaultMessage: 'Security' },
});

/** The dashboard's folder cards (phone layout): the table's column names as labels. */
export const FOLDER_CARD_LABELS = textsOf(folderCard);
