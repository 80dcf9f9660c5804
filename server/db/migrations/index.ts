// The schema's history, in order. To change the schema, add a file `NNNN-what-it-does.ts`
// exporting a SchemaMigration and append it here with the next number; never edit a migration
// that has shipped. The same list runs on SQLite and PostgreSQL.
import type { SchemaMigration } from './dialect-helpers.ts';
import { usersAndSessions } from './0001-users-and-sessions.ts';
import { foldersAndFiles } from './0002-folders-and-files.ts';
import { uploads } from './0003-uploads.ts';
import { downloadLinks } from './0004-download-links.ts';
import { csrfTokensDerived } from './0005-csrf-tokens-derived.ts';
import { taskLeases } from './0006-task-leases.ts';
import { downloadLimits } from './0010-download-limits.ts';
import { uploadNotifications } from './0011-upload-notifications.ts';
import { webhooks } from './0012-webhooks.ts';
import { activityLog } from './0013-activity-log.ts';
import { folderExpiryEvents } from './0014-folder-expiry-events.ts';
import { uploadBatches } from './0015-upload-batches.ts';
import { loginKeyDerivation } from './0016-login-key-derivation.ts';
import { folderStorage } from './0017-folder-storage.ts';
import { diskSpaceClaims } from './0018-disk-space-claims.ts';
import { downloadReceipts } from './0019-download-receipts.ts';
import { oldSchemeSignInClosing } from './0020-old-scheme-sign-in-closing.ts';
import { boundKdfParams } from './0021-bound-kdf-params.ts';
import { organisationAccounts } from './0022-organisation-accounts.ts';
import { passkeys } from './0024-passkeys.ts';
import { teamFolders } from './0025-team-folders.ts';
import { accountLanguage } from './0026-account-language.ts';
import { singleSignOn } from './0027-single-sign-on.ts';
import { organisationRecovery } from './0028-organisation-recovery.ts';

export const schemaMigrations: ReadonlyArray<readonly [name: string, migration: SchemaMigration]> = [
  ['0001-users-and-sessions', usersAndSessions],
  ['0002-folders-and-files', foldersAndFiles],
  ['0003-uploads', uploads],
  ['0004-download-links', downloadLinks],
  ['0005-csrf-tokens-derived', csrfTokensDerived],
  ['0006-task-leases', taskLeases],
  ['0010-download-limits', downloadLimits],
  ['0011-upload-notifications', uploadNotifications],
  ['0012-webhooks', webhooks],
  ['0013-activity-log', activityLog],
  ['0014-folder-expiry-events', folderExpiryEvents],
  ['0015-upload-batches', uploadBatches],
  ['0016-login-key-derivation', loginKeyDerivation],
  ['0017-folder-storage', folderStorage],
  ['0018-disk-space-claims', diskSpaceClaims],
  ['0019-download-receipts', downloadReceipts],
  ['0020-old-scheme-sign-in-closing', oldSchemeSignInClosing],
  ['0021-bound-kdf-params', boundKdfParams],
  ['0022-organisation-accounts', organisationAccounts],
  ['0024-passkeys', passkeys],
  ['0025-team-folders', teamFolders],
  ['0026-account-language', accountLanguage],
  ['0027-single-sign-on', singleSignOn],
  ['0028-organisation-recovery', organisationRecovery],
];
