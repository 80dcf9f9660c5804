// The keys screens' own texts (profile section "End-to-End Encryption Key", its dialogs and the
// unlock dialog). Texts of errors and results live in src/lib/userTexts/keys.ts.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const KEYS_UI = defineMessages({
  sectionTitle: { id: 'keys.section.title', defaultMessage: 'End-to-End Encryption Key' },
  sectionDescription: {
    id: 'keys.section.description',
    defaultMessage: 'Your key pair lets you decrypt the files uploaders send you. The private key never leaves your browser unencrypted.',
  },
  orphanTitle: { id: 'keys.section.orphanTitle', defaultMessage: 'Public key without a stored private key' },
  orphanText: {
    id: 'keys.section.orphanText',
    defaultMessage:
      'Uploaders encrypt files for your public key, but no encrypted private key is stored on the server, so those files cannot be decrypted here. Restore your key from its backup file, or generate a new key pair.',
  },
  cancel: { id: 'keys.action.cancel', defaultMessage: 'Cancel' },
  dismiss: { id: 'keys.action.dismiss', defaultMessage: 'Dismiss' },

  statusLabel: { id: 'keys.status.label', defaultMessage: 'Key storage status' },
  checkingHeadline: { id: 'keys.status.checkingHeadline', defaultMessage: 'Checking key storage status...' },
  checkingDetail: { id: 'keys.status.checkingDetail', defaultMessage: 'Asking the server whether your encrypted private key is stored.' },
  storedHeadline: { id: 'keys.status.storedHeadline', defaultMessage: 'Your encrypted private key is stored on the server.' },
  storedDetail: { id: 'keys.status.storedDetail', defaultMessage: 'It is unlocked with your login password, in this browser only, when you download files.' },
  notStoredHeadline: { id: 'keys.status.notStoredHeadline', defaultMessage: 'No encrypted private key is stored on the server.' },
  notStoredDetail: { id: 'keys.status.notStoredDetail', defaultMessage: 'Generate a new key pair, or restore your key from a backup file below.' },
  unknownHeadline: { id: 'keys.status.unknownHeadline', defaultMessage: 'Key storage status unknown.' },
  unknownDetail: { id: 'keys.status.unknownDetail', defaultMessage: 'The status could not be checked. Reload the page to try again.' },
  unlockedDetail: { id: 'keys.status.unlockedDetail', defaultMessage: 'Unlocked for this session: downloads will not ask for your password.' },
  chipChecking: { id: 'keys.status.chipChecking', defaultMessage: 'Checking...' },
  chipStored: { id: 'keys.status.chipStored', defaultMessage: 'Stored' },
  chipNotStored: { id: 'keys.status.chipNotStored', defaultMessage: 'Not stored' },
  chipUnknown: { id: 'keys.status.chipUnknown', defaultMessage: 'Unknown' },
  lock: { id: 'keys.status.lock', defaultMessage: 'Lock Private Key' },
  unlock: { id: 'keys.status.unlock', defaultMessage: 'Unlock Private Key' },

  generateTitle: { id: 'keys.generate.title', defaultMessage: 'Generate New Key Pair' },
  generateIntro: {
    id: 'keys.generate.intro',
    defaultMessage: 'Creates a new RSA key pair in this browser. The private key is encrypted with your login password before it is stored.',
  },
  generateFormLabel: { id: 'keys.generate.formLabel', defaultMessage: 'Generate new key pair' },
  generatePassword: { id: 'keys.generate.password', defaultMessage: 'Login Password' },
  generatePasswordHint: { id: 'keys.generate.passwordHint', defaultMessage: 'Needed to encrypt the new private key.' },
  generateVerifying: { id: 'keys.generate.verifying', defaultMessage: 'Verifying password...' },
  generateGenerating: { id: 'keys.generate.generating', defaultMessage: 'Generating and encrypting keys...' },
  generateConfirmTitle: { id: 'keys.generate.confirmTitle', defaultMessage: 'Generate a new key pair?' },
  generateConfirmText: {
    id: 'keys.generate.confirmText',
    defaultMessage:
      'Files already encrypted for your old key cannot be decrypted with the new one. They become inaccessible unless you keep the backup file of your old key.',
  },
  generateReplaceWarning: {
    id: 'keys.generate.replaceWarning',
    defaultMessage: 'Your current key will be replaced. Make sure you have its backup file before you continue.',
  },
  generateConfirm: { id: 'keys.generate.confirm', defaultMessage: 'Generate New Keys' },

  newPairTitle: { id: 'keys.newPair.title', defaultMessage: 'New Key Pair Generated - Actions Required!' },
  newPairWarning: {
    id: 'keys.newPair.warning',
    defaultMessage: 'Your new key pair exists only in this window until these steps are done. Complete all three before closing.',
  },
  stepRequired: { id: 'keys.newPair.required', defaultMessage: 'Required' },
  uploadTitle: { id: 'keys.newPair.uploadTitle', defaultMessage: 'Upload the public key' },
  uploadText: { id: 'keys.newPair.uploadText', defaultMessage: "Uploaders' browsers encrypt every file for this key." },
  uploadIdle: { id: 'keys.newPair.upload', defaultMessage: 'Upload Public Key' },
  uploadBusy: { id: 'keys.newPair.uploading', defaultMessage: 'Uploading...' },
  uploadDone: { id: 'keys.newPair.uploaded', defaultMessage: 'Uploaded ✓' },
  saveTitle: { id: 'keys.newPair.saveTitle', defaultMessage: 'Save the encrypted key data to your profile' },
  saveText: {
    id: 'keys.newPair.saveText',
    defaultMessage: 'Your private key, encrypted with your login password, is kept on the server so you can unlock it when you download files.',
  },
  saveIdle: { id: 'keys.newPair.save', defaultMessage: 'Save Key Data' },
  saveBusy: { id: 'keys.newPair.saving', defaultMessage: 'Saving...' },
  saveDone: { id: 'keys.newPair.saved', defaultMessage: 'Saved ✓' },
  downloadTitle: { id: 'keys.newPair.downloadTitle', defaultMessage: 'Download the backup file' },
  downloadText: {
    id: 'keys.newPair.downloadText',
    defaultMessage: 'Keep this file in a safe place. Together with your login password it restores your key if the copy on the server is lost.',
  },
  download: { id: 'keys.newPair.download', defaultMessage: 'Download Backup (.json)' },
  downloadAgain: { id: 'keys.newPair.downloadAgain', defaultMessage: 'Download Again?' },
  closeBlocked: { id: 'keys.newPair.closeBlocked', defaultMessage: 'Please complete all steps (upload, save, download) before closing.' },
  close: { id: 'keys.newPair.close', defaultMessage: 'Close' },
  closeDone: { id: 'keys.newPair.closeDone', defaultMessage: 'Done (Close)' },

  unlockTitle: { id: 'keys.unlock.title', defaultMessage: 'Login Password Required' },
  unlockFormLabel: { id: 'keys.unlock.formLabel', defaultMessage: 'Unlock private key' },
  unlockIntro: {
    id: 'keys.unlock.intro',
    defaultMessage: "Enter your login password to unlock your private key. It stays unlocked in this browser's memory until you log out.",
  },
  unlockPassword: { id: 'keys.unlock.password', defaultMessage: 'Login Password' },
  unlockSubmit: { id: 'keys.unlock.submit', defaultMessage: 'Unlock' },
  unlocking: { id: 'keys.unlock.unlocking', defaultMessage: 'Unlocking...' },
  unlockContinue: { id: 'keys.unlock.continue', defaultMessage: 'Continue' },
  unlockTryAgain: { id: 'keys.unlock.tryAgain', defaultMessage: 'Try Again' },

  restoreTitle: { id: 'keys.restore.title', defaultMessage: 'Restore From Backup' },
  restoreIntro: {
    id: 'keys.restore.intro',
    defaultMessage: 'Puts the key pair of a backup file (.json) back on your profile, for example on a new computer or after generating keys by mistake.',
  },
  restoreFormLabel: { id: 'keys.restore.formLabel', defaultMessage: 'Restore key from backup' },
  restoreFileLabel: { id: 'keys.restore.fileLabel', defaultMessage: 'Backup file' },
  restoreChooseFile: { id: 'keys.restore.chooseFile', defaultMessage: 'Choose Backup File' },
  restoreNoFile: { id: 'keys.restore.noFile', defaultMessage: 'No file selected' },
  restorePassword: { id: 'keys.restore.password', defaultMessage: 'Current Login Password' },
  restoreBackupPassword: { id: 'keys.restore.backupPassword', defaultMessage: 'Password When Backup Was Made' },
  restoreBackupPasswordHint: { id: 'keys.restore.backupPasswordHint', defaultMessage: 'Your login password at the time you downloaded this backup.' },
  restoreSubmit: { id: 'keys.restore.submit', defaultMessage: 'Restore Key' },
  restoring: { id: 'keys.restore.restoring', defaultMessage: 'Restoring...' },

  mismatchTitle: { id: 'keys.mismatch.title', defaultMessage: 'Backup belongs to another user' },
  mismatchNoUser: {
    id: 'keys.mismatch.noUser',
    defaultMessage: 'This backup file does not say which user it belongs to. You are signed in as "{currentUsername}". Restore this key for your account anyway?',
  },
  mismatchOtherUser: {
    id: 'keys.mismatch.otherUser',
    defaultMessage:
      'This backup file was made for the user "{backupUsername}". You are signed in as "{currentUsername}". Restore this key for your account anyway?',
  },
  mismatchConfirm: { id: 'keys.mismatch.confirm', defaultMessage: 'Restore Anyway' },

  backupDescription: {
    id: 'keys.backup.description',
    defaultMessage:
      'Sealdrop private key backup. The private key is encrypted with your login password as it was when this file was made. Keep this file and that password: together they are the only way to decrypt your files if the key on the server is lost.',
    description: 'The "description" line written into the key backup file the user saves',
  },
});
