// Texts of team folders (docs/team-folders.md): the folder page's members section, its dialogs,
// the warning when the browser refuses a folder's member list, and the dashboard's role marks.

export const TEAM_ROLE_TEXTS = {
  owner: 'Owner',
  manager: 'Manager',
  reader: 'Reader',
} as const;

export const TEAM_TEXTS = {
  title: 'Members',
  personalIntro: 'Only you can open the files of this folder. Share it to let colleagues of your organisation open them too: every member\'s browser gets the folder\'s key, sealed to their own key pair.',
  share: 'Share Folder...',
  unlockToSee: 'Unlock your private key to see and check this folder\'s members.',
  unlock: 'Show Members',
  loading: 'Checking the signed member list...',
  loadFailed: (message: string) => `The member list could not be loaded: ${message}`,
  retry: 'Retry',
  youSuffix: ' (you)',
  keyLastChanged: (date: string) => `Folder key last changed ${date}`,
  keyEpoch: (epoch: number) => `key version ${epoch}`,
  fingerprintLabel: 'Key fingerprint',
  fingerprintFailed: 'Fingerprint unavailable',
  disabledChip: 'Disabled account',
  disabledNotice: (names: string) =>
    `Disabled accounts are still members: ${names}. Remove them so that files uploaded from now on are sealed to a new key they do not hold.`,
  roleLabel: 'Role',
  changeRole: (name: string) => `Role of ${name}`,
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  add: 'Add Member...',
  readerNote: 'You can list, download and decrypt this folder\'s files. Its owner and managers change its members.',
  notifyLabel: 'E-mail me when files arrive in this folder',
  notifySaved: 'Notification choice saved.',
  changed: 'Members updated.',
  shared: 'The folder is now shared.',
  teamChangedFailed: 'Someone else changed the members at the same time, and trying again on their version failed too.',
  changeFailed: (message: string) => `The members could not be changed: ${message}`,
  refusedTitle: 'This folder\'s member list failed the check in your browser',
  refusedBody:
    'The server sent a member list that is not signed by the folder\'s owner or a manager, or that differs from what this browser saw before. Nothing is signed or sealed for this folder from this browser until it is resolved. Tell the folder\'s owner and your administrator.',
  refusedUnlisted: (names: string) => `Members the server lists without a signature: ${names}.`,
  refusedReason: (reason: string) => `Check that failed: ${reason}.`,
  ownerKeyOnly: 'This file was uploaded while the folder was being shared, so it is sealed to the owner\'s key only. Ask the folder\'s owner for it.',
} as const;

export const TEAM_DIALOG_TEXTS = {
  cancel: 'Cancel',
  addTitle: 'Add a member',
  addIntro: 'They will be able to open every file of this folder, including those uploaded before today.',
  personLabel: 'Person',
  noCandidates: 'Everyone in your organisation with a key pair is already a member.',
  noKey: 'has no key pair yet',
  compareFingerprint: 'Compare this fingerprint with the one they see on their profile (by phone or in person) before you add them:',
  add: 'Add Member',
  adding: 'Adding...',
  removeTitle: (name: string) => `Remove ${name}?`,
  removeBody:
    'Files uploaded after the removal are sealed to a new folder key they do not get: they cannot open them, even with a copy of everything the server holds. Files they could open before stay readable to them; nothing already stored is re-encrypted.',
  removeConfirm: 'Remove Member',
  removing: 'Removing...',
  shareTitle: 'Share this folder',
  shareIntro:
    'Pick the colleagues who may open this folder\'s files. Your browser makes a folder key, seals it to each member\'s key pair and re-seals the keys of the files already here (the files themselves are not touched).',
  shareNone: 'Add at least one member.',
  shareConfirm: 'Share Folder',
  sharing: 'Sharing...',
  shareProgress: (count: number) => `Re-sealing the keys of ${count} files...`,
  memberListLabel: 'Members to add',
  removeFromList: (name: string) => `Take ${name} off the list`,
  addToList: 'Add to List',
} as const;

export const DASHBOARD_TEAM_TEXTS = {
  sharedWithMe: (role: string) => `Shared with me · ${role}`,
  sharedByMe: 'Shared',
} as const;
