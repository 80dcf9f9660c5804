// The dashboard's texts (spec section 2): the page header, the folder list, its table and cards.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const DASHBOARD_MESSAGES = defineMessages({
  checkingAuthentication: { id: 'dashboard.page.checkingAuthentication', defaultMessage: 'Checking authentication...' },
  title: { id: 'dashboard.page.title', defaultMessage: 'Admin Dashboard' },
  signedInAs: { id: 'dashboard.page.signedInAs', defaultMessage: 'Signed in as <b>{username}</b>' },
  myProfile: { id: 'dashboard.page.myProfile', defaultMessage: 'My Profile' },
  activity: { id: 'dashboard.page.activity', defaultMessage: 'Activity' },
  createFolder: { id: 'dashboard.page.createFolder', defaultMessage: '+ Create New Folder' },
  logout: { id: 'dashboard.page.logout', defaultMessage: 'Logout' },

  deleteTitle: { id: 'dashboard.delete.title', defaultMessage: 'Delete folder' },
  deleteConfirmation: {
    id: 'dashboard.delete.confirmation',
    defaultMessage: 'Are you sure you want to delete the folder "{title}"? This action cannot be undone.',
  },
  deleted: { id: 'dashboard.delete.done', defaultMessage: 'Folder "{title}" deleted.' },

  copyLink: { id: 'dashboard.actions.copyLink', defaultMessage: 'Copy Link' },
  copyFailed: { id: 'dashboard.actions.copyFailed', defaultMessage: 'Failed to copy link to clipboard.' },
  edit: { id: 'dashboard.actions.edit', defaultMessage: 'Edit' },
  delete: { id: 'dashboard.actions.delete', defaultMessage: 'Delete' },

  folders: { id: 'dashboard.list.folders', defaultMessage: 'Folders', description: 'Accessible name of the table (or list of cards) of folders' },
  section: { id: 'dashboard.list.section', defaultMessage: 'Upload folders' },
  loading: { id: 'dashboard.list.loading', defaultMessage: 'Loading folders...' },
  refreshing: { id: 'dashboard.list.refreshing', defaultMessage: 'Refreshing folders' },
  error: { id: 'dashboard.list.error', defaultMessage: 'Error: {message}' },
  emptyTitle: { id: 'dashboard.list.emptyTitle', defaultMessage: 'No folders found' },
  emptyHint: { id: 'dashboard.list.emptyHint', defaultMessage: 'Get started by creating a new upload folder.' },
  emptyCreate: { id: 'dashboard.list.emptyCreate', defaultMessage: 'Create Upload Folder' },

  columnTitle: { id: 'dashboard.table.title', defaultMessage: 'Title' },
  columnCreated: { id: 'dashboard.table.created', defaultMessage: 'Created' },
  columnExpires: { id: 'dashboard.table.expires', defaultMessage: 'Expires' },
  columnLastUpload: { id: 'dashboard.table.lastUpload', defaultMessage: 'Last Upload' },
  columnStatus: { id: 'dashboard.table.status', defaultMessage: 'Status' },
  columnSecurity: { id: 'dashboard.table.security', defaultMessage: 'Security' },
  columnActions: { id: 'dashboard.table.actions', defaultMessage: 'Actions' },

  statusActive: { id: 'dashboard.status.active', defaultMessage: 'Active' },
  statusInactive: { id: 'dashboard.status.inactive', defaultMessage: 'Inactive' },
  statusExpired: { id: 'dashboard.status.expired', defaultMessage: 'Expired' },

  newFilesHint: { id: 'dashboard.badges.newFilesHint', defaultMessage: 'Some files in this folder have never been downloaded' },
  newFiles: { id: 'dashboard.badges.newFiles', defaultMessage: 'New files' },
  openLinkHint: { id: 'dashboard.badges.openLinkHint', defaultMessage: 'Anyone with the link can upload' },
  openLink: { id: 'dashboard.badges.openLink', defaultMessage: 'Open link' },
  passwordHint: { id: 'dashboard.badges.passwordHint', defaultMessage: 'The upload link asks for a password' },
  password: { id: 'dashboard.badges.password', defaultMessage: 'Password' },
  onlyEmails: { id: 'dashboard.badges.onlyEmails', defaultMessage: 'Only: {emails}', description: 'emails: the allowed addresses, comma-separated' },
  anyEmail: { id: 'dashboard.badges.anyEmail', defaultMessage: 'Any verified e-mail address' },
  emailVerification: { id: 'dashboard.badges.emailVerification', defaultMessage: 'E-mail verification' },
  allowedAddresses: {
    id: 'dashboard.badges.allowedAddresses',
    defaultMessage: '{count, plural, one {# allowed address} other {# allowed addresses}}',
  },
});
