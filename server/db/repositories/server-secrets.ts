// Secrets the server derives answers from (server_secrets, made by a migration so every process of
// a deployment reads the same value).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { codedError } from '../../../contract/coded-error.ts';

export type ServerSecretName = 'prelogin' | 'link-recipient';

export class MissingServerSecretError extends codedError('SERVER_SECRET_MISSING') {
  constructor(name: ServerSecretName) {
    super(`the server secret "${name}" is missing from the database (its migration did not run)`);
  }
}

export function createServerSecretsRepository(db: Kysely<Database>) {
  return {
    async get(name: ServerSecretName): Promise<string> {
      const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
      if (!row) throw new MissingServerSecretError(name);
      return row.value;
    },
  };
}

export type ServerSecretsRepository = ReturnType<typeof createServerSecretsRepository>;
