// Texts of team folders (docs/team-folders.md): the folder page's members section, its dialogs,
// the warning when the browser refuses a folder's member list, and the dashboard's role marks.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';
import { withTexts } from './withTexts.ts';

const roles = defineMessages({
  owner: { id: 'team.role.owner', defaultMessage: 'Owner' },
  manager: { id: 'team.role.manager', defaultMessage: 'Manager' },
  reader: { id: 'team.role.reader', defaultMessage: 'Reader' },
});

export const TEAM_ROLE_TEXTS = textsOf(roles);

const team = defineMessages({
  title: { id: 'team.members.title', defaultMessage: 'Members' },
  personalIntro: {
    id: 'team.members.personalIntro',
    defaultMessage:
      "Only you can open the files of this folder. Share it to let colleagues of your organisation open them too: every member's browser gets the folder's key, sealed to their own key pair.",
  },
  share: { id: 'team.members.share', defaultMessage: 'Share Folder...' },
  unlockToSee: { id: 'team.members.unlockToSee', defaultMessage: "Unlock your private key to see and check this folder's members." },
  unlock: { id: 'team.members.unlock', defaultMessage: 'Show Members' },
  loading: { id: 'team.members.loading', defaultMessage: 'Checking the signed member list...' },
  loadFailed: { id: 'team.members.loadFailed', defaultMessage: 'The member list could not be loaded: {message}' },
  retry: { id: 'team.members.retry', defaultMessage: 'Retry' },
  you: { id: 'team.members.you', defaultMessage: '(you)', description: 'After the name of the signed-in member' },
  keyLastChanged: {
    id: 'team.members.keyLastChanged',
    defaultMessage: 'Folder key last changed {date} (key version {epoch})',
    description: "date: when the folder's current key was made; epoch: its version number",
  },
  fingerprintLabel: { id: 'team.members.fingerprintLabel', defaultMessage: 'Key fingerprint' },
  fingerprintFailed: { id: 'team.members.fingerprintFailed', defaultMessage: 'Fingerprint unavailable' },
  disabledChip: { id: 'team.members.disabledChip', defaultMessage: 'Disabled account' },
  disabledNotice: {
    id: 'team.members.disabledNotice',
    defaultMessage: 'Disabled accounts are still members: {names}. Remove them so that files uploaded from now on are sealed to a new key they do not hold.',
  },
  roleLabel: { id: 'team.members.roleLabel', defaultMessage: 'Role' },
  changeRole: { id: 'team.members.changeRole', defaultMessage: 'Role of {name}' },
  remove: { id: 'team.members.remove', defaultMessage: 'Remove' },
  removeLabel: { id: 'team.members.removeLabel', defaultMessage: 'Remove {name}' },
  add: { id: 'team.members.add', defaultMessage: 'Add Member...' },
  readerNote: {
    id: 'team.members.readerNote',
    defaultMessage: "You can list, download and decrypt this folder's files. Its owner and managers change its members.",
  },
  notifyLabel: { id: 'team.members.notifyLabel', defaultMessage: 'E-mail me when files arrive in this folder' },
  notifySaved: { id: 'team.members.notifySaved', defaultMessage: 'Notification choice saved.' },
  changed: { id: 'team.members.changed', defaultMessage: 'Members updated.' },
  shared: { id: 'team.members.shared', defaultMessage: 'The folder is now shared.' },
  teamChangedFailed: {
    id: 'team.members.teamChangedFailed',
    defaultMessage: 'Someone else changed the members at the same time, and trying again on their version failed too.',
  },
  changeFailed: { id: 'team.members.changeFailed', defaultMessage: 'The members could not be changed: {message}' },
  refusedTitle: { id: 'team.refused.title', defaultMessage: "This folder's member list failed the check in your browser" },
  refusedBody: {
    id: 'team.refused.body',
    defaultMessage:
      "The server sent a member list that is not signed by the folder's owner or a manager, or that differs from what this browser saw before. Nothing is signed or sealed for this folder from this browser until it is resolved. Tell the folder's owner and your administrator.",
  },
  refusedUnlisted: { id: 'team.refused.unlisted', defaultMessage: 'Members the server lists without a signature: {names}.' },
  refusedReason: { id: 'team.refused.reason', defaultMessage: 'Check that failed: {reason}.' },
  ownerKeyOnly: {
    id: 'team.files.ownerKeyOnly',
    defaultMessage: "This file was uploaded while the folder was being shared, so it is sealed to the owner's key only. Ask the folder's owner for it.",
  },
  notOpen: { id: 'team.files.notOpen', defaultMessage: "The folder's member list could not be opened." },
});

export const TEAM_TEXTS = withTexts(
  textsOf({
    title: team.title,
    personalIntro: team.personalIntro,
    share: team.share,
    unlockToSee: team.unlockToSee,
    unlock: team.unlock,
    loading: team.loading,
    retry: team.retry,
    fingerprintLabel: team.fingerprintLabel,
    fingerprintFailed: team.fingerprintFailed,
    disabledChip: team.disabledChip,
    roleLabel: team.roleLabel,
    remove: team.remove,
    add: team.add,
    readerNote: team.readerNote,
    notifyLabel: team.notifyLabel,
    notifySaved: team.notifySaved,
    changed: team.changed,
    shared: team.shared,
    teamChangedFailed: team.teamChangedFailed,
    refusedTitle: team.refusedTitle,
    refusedBody: team.refusedBody,
    ownerKeyOnly: team.ownerKeyOnly,
    notOpen: team.notOpen,
  }),
  {
    /** ' (you)': after the name, a space apart. */
    get youSuffix() {
      return ` ${t(team.you)}`;
    },
    loadFailed: (message: string) => t(team.loadFailed, { message }),
    /** The folder key's date and its version number (a name, so no thousands separator). */
    keyLastChanged: (date: string, epoch: number) => t(team.keyLastChanged, { date, epoch: String(epoch) }),
    disabledNotice: (names: string) => t(team.disabledNotice, { names }),
    changeRole: (name: string) => t(team.changeRole, { name }),
    removeLabel: (name: string) => t(team.removeLabel, { name }),
    changeFailed: (message: string) => t(team.changeFailed, { message }),
    refusedUnlisted: (names: string) => t(team.refusedUnlisted, { names }),
    refusedReason: (reason: string) => t(team.refusedReason, { reason }),
  },
);

const dialogs = defineMessages({
  cancel: { id: 'team.dialog.cancel', defaultMessage: 'Cancel' },
  addTitle: { id: 'team.dialog.addTitle', defaultMessage: 'Add a member' },
  addIntro: { id: 'team.dialog.addIntro', defaultMessage: 'They will be able to open every file of this folder, including those uploaded before today.' },
  personLabel: { id: 'team.dialog.personLabel', defaultMessage: 'Person' },
  noCandidates: { id: 'team.dialog.noCandidates', defaultMessage: 'Everyone in your organisation with a key pair is already a member.' },
  personWithoutKey: { id: 'team.dialog.personWithoutKey', defaultMessage: '{name}: has no key pair yet', description: 'A person in the list who cannot be picked' },
  compareFingerprint: {
    id: 'team.dialog.compareFingerprint',
    defaultMessage: 'Compare this fingerprint with the one they see on their profile (by phone or in person) before you add them:',
  },
  add: { id: 'team.dialog.add', defaultMessage: 'Add Member' },
  adding: { id: 'team.dialog.adding', defaultMessage: 'Adding...' },
  removeTitle: { id: 'team.dialog.removeTitle', defaultMessage: 'Remove {name}?' },
  removeBody: {
    id: 'team.dialog.removeBody',
    defaultMessage:
      'Files uploaded after the removal are sealed to a new folder key they do not get: they cannot open them, even with a copy of everything the server holds. Files they could open before stay readable to them; nothing already stored is re-encrypted.',
  },
  removeConfirm: { id: 'team.dialog.removeConfirm', defaultMessage: 'Remove Member' },
  removing: { id: 'team.dialog.removing', defaultMessage: 'Removing...' },
  shareTitle: { id: 'team.dialog.shareTitle', defaultMessage: 'Share this folder' },
  shareIntro: {
    id: 'team.dialog.shareIntro',
    defaultMessage:
      "Pick the colleagues who may open this folder's files. Your browser makes a folder key, seals it to each member's key pair and re-seals the keys of the files already here (the files themselves are not touched).",
  },
  shareNone: { id: 'team.dialog.shareNone', defaultMessage: 'Add at least one member.' },
  shareConfirm: { id: 'team.dialog.shareConfirm', defaultMessage: 'Share Folder' },
  sharing: { id: 'team.dialog.sharing', defaultMessage: 'Sharing...' },
  shareProgress: { id: 'team.dialog.shareProgress', defaultMessage: 'Re-sealing the keys of {count} files...', description: 'Shown from 20 files on' },
  memberListLabel: { id: 'team.dialog.memberListLabel', defaultMessage: 'Members to add' },
  removeFromList: { id: 'team.dialog.removeFromList', defaultMessage: 'Take {name} off the list' },
  addToList: { id: 'team.dialog.addToList', defaultMessage: 'Add to List' },
});

export const TEAM_DIALOG_TEXTS = withTexts(
  textsOf({
    cancel: dialogs.cancel,
    addTitle: dialogs.addTitle,
    addIntro: dialogs.addIntro,
    personLabel: dialogs.personLabel,
    noCandidates: dialogs.noCandidates,
    compareFingerprint: dialogs.compareFingerprint,
    add: dialogs.add,
    adding: dialogs.adding,
    removeBody: dialogs.removeBody,
    removeConfirm: dialogs.removeConfirm,
    removing: dialogs.removing,
    shareTitle: dialogs.shareTitle,
    shareIntro: dialogs.shareIntro,
    shareNone: dialogs.shareNone,
    shareConfirm: dialogs.shareConfirm,
    sharing: dialogs.sharing,
    memberListLabel: dialogs.memberListLabel,
    addToList: dialogs.addToList,
  }),
  {
    personWithoutKey: (name: string) => t(dialogs.personWithoutKey, { name }),
    removeTitle: (name: string) => t(dialogs.removeTitle, { name }),
    shareProgress: (count: number) => t(dialogs.shareProgress, { count }),
    removeFromList: (name: string) => t(dialogs.removeFromList, { name }),
  },
);

const dashboard = defineMessages({
  sharedWithMe: { id: 'team.dashboard.sharedWithMe', defaultMessage: 'Shared with me · {role}' },
  sharedByMe: { id: 'team.dashboard.sharedByMe', defaultMessage: 'Shared' },
});

export const DASHBOARD_TEAM_TEXTS = withTexts(textsOf({ sharedByMe: dashboard.sharedByMe }), {
  sharedWithMe: (role: string) => t(dashboard.sharedWithMe, { role }),
});
