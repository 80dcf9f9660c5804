// A fault injected between the two writes of a login move (key data first, then the login
// secret, in one transaction): a trigger makes the update of `users.password_hash` fail, on
// SQLite and PostgreSQL alike. The returned function removes it again.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';

export async function failLoginSecretUpdates(db: Kysely<Database>, name: string, usingPostgres: boolean): Promise<() => Promise<void>> {
  const trigger = sql.raw(name);
  if (usingPostgres) {
    await sql`create function ${trigger}() returns trigger as $$ begin raise exception 'injected fault between the two writes'; end $$ language plpgsql`.execute(db);
    await sql`create trigger ${trigger} before update of password_hash on users for each row execute function ${trigger}()`.execute(db);
    return async () => {
      await sql`drop trigger ${trigger} on users`.execute(db);
      await sql`drop function ${trigger}()`.execute(db);
    };
  }
  await sql`create trigger ${trigger} before update of password_hash on users begin select raise(abort, 'injected fault between the two writes'); end`.execute(db);
  return async () => {
    await sql`drop trigger ${trigger}`.execute(db);
  };
}
