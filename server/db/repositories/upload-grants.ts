// Upload grants: proof that a browser passed an upload link's gates (link password, e-mail code).
// The browser holds a random token in a cookie; only its SHA-256 is stored here.
import type { Kysely } from 'kysely';
import type { Database, UploadGrantRow } from '../schema.ts';
import { deleteExpired } from '../expiry.ts';
import { rowMapper, rowValues } from '../row-mapping.ts';

export interface UploadGrant {
  id: number;
  folderId: number;
  /** SHA-256 of the folder's link-password hash when the password was passed; null when it was not. */
  passwordDigest: string | null;
  /** The verified e-mail address (lower-cased); null when no code was verified. */
  email: string | null;
  expiresAt: number;
}

export interface NewUploadGrant {
  tokenHash: string;
  folderId: number;
  passwordDigest: string | null;
  email: string | null;
  expiresAt: number;
  now: number;
}

export type UploadGrantChanges = Partial<Pick<UploadGrant, 'passwordDigest' | 'email' | 'expiresAt'>>;

const toGrant = rowMapper<UploadGrantRow, UploadGrant>()({ numbers: ['expires_at'], omit: ['token_hash', 'created_at'] });

export function createUploadGrantsRepository(db: Kysely<Database>) {
  return {
    async create(input: NewUploadGrant): Promise<UploadGrant> {
      const row = await db
        .insertInto('upload_grants')
        .values({ ...rowValues(input, ['tokenHash', 'folderId', 'passwordDigest', 'email', 'expiresAt']), created_at: input.now })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGrant(row);
    },

    /** The live grant with this token hash for this folder. */
    async findLive(tokenHash: string, folderId: number, now: number): Promise<UploadGrant | undefined> {
      const row = await db
        .selectFrom('upload_grants')
        .selectAll()
        .where((eb) => eb.and({ token_hash: tokenHash, folder_id: folderId }))
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && toGrant(row);
    },

    async update(id: number, changes: UploadGrantChanges): Promise<void> {
      const values = {
        ...(changes.passwordDigest !== undefined ? { password_digest: changes.passwordDigest } : {}),
        ...(changes.email !== undefined ? { email: changes.email } : {}),
        ...(changes.expiresAt !== undefined ? { expires_at: changes.expiresAt } : {}),
      };
      if (Object.keys(values).length === 0) return;
      await db.updateTable('upload_grants').set(values).where('id', '=', id).execute();
    },

    async deleteExpired(now: number): Promise<number> {
      return deleteExpired(db, 'upload_grants', now, 'expires_at');
    },
  };
}

export type UploadGrantsRepository = ReturnType<typeof createUploadGrantsRepository>;
