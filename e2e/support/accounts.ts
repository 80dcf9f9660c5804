// Accounts for the end-to-end specs, made as `npm run admin -- create-user` makes them (server/cli.ts):
// the configuration read from DATA_DIR and the rest of the environment, the database opened and
// migrated, then server/auth/user-admin.ts's createUser (name and e-mail checks, the role rules,
// a name-bound KDF parameter block at the default cost). It runs in the Playwright worker itself:
// a CLI process per account spent about 2.5 CPU-s loading modules through tsx, 42 times a run
// (docs/operations.md, "Test suite"). e2e/cli.spec.ts still makes its account with the real CLI.
import { createUser } from '../../server/auth/user-admin.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { createRepositories } from '../../server/db/repositories/index.ts';
import type { OrgRole } from '../../contract/organisation.ts';

export interface NewAccount {
  username: string;
  password: string;
  /** `--email`. */
  email?: string;
  /** `--role`; unset, the CLI's default (member, unless it is the first account). */
  orgRole?: OrgRole;
}

/**
 * Creates the account in the database of the server whose DATA_DIR is `dataDir`. The database is
 * opened for this one account and closed again, as the CLI does: a spec that wipes and restarts
 * its own server between tests (a retry) must never get an account in the deleted file.
 */
export async function createAccount(dataDir: string, account: NewAccount): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const database = await openDatabase(config.database);
  try {
    await createUser(createRepositories(database.db), {
      username: account.username,
      password: account.password,
      email: account.email ?? null,
      now: Date.now(),
      orgRole: account.orgRole,
    });
  } finally {
    await database.close();
  }
}
