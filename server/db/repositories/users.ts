// Users. Usernames are matched case-insensitively (backed by a unique index on lower(username)).
import { sql, type Kysely } from 'kysely';
import type { OrgRole } from '../../../contract/organisation.ts';
import type { Database, UserRow } from '../schema.ts';
import { codedError } from '../../../contract/coded-error.ts';
import { changedRows, claimedOne, refusableTransaction } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';
import { isUniqueViolation } from '../unique-violation.ts';

export interface User {
  id: number;
  username: string;
  email: string | null;
  /** argon2id of the authentication secret; of the password itself while `kdfParams` is null. */
  passwordHash: string;
  /** The account's scheme-2 KDF parameter block (base64); null: an account not yet upgraded. */
  kdfParams: string | null;
  /** Pending (is2faEnabled false) or active TOTP secret; null when 2FA was never set up. */
  totpSecret: string | null;
  is2faEnabled: boolean;
  publicKeySpki: string | null;
  createdAt: number;
  orgRole: OrgRole;
  /** When an organisation admin disabled the account; null while it is active. */
  disabledAt: number | null;
  displayName: string | null;
  /** When the invitation it was made from was sent; null for accounts the CLI made. */
  invitedAt: number | null;
  /** The language chosen in the app; null: never chosen (its e-mails are in English). */
  language: string | null;
  /** False for an account made by single sign-on: it has no password. */
  passwordSignIn: boolean;
}

/** A new account's fields besides its login secret. */
export interface NewUser {
  username: string;
  email: string | null;
  passwordHash: string;
  kdfParams: string | null;
  now: number;
  orgRole?: OrgRole;
  displayName?: string | null;
  invitedAt?: number | null;
  /** False: made by single sign-on, no password (the hash is of a secret nobody knows). */
  passwordSignIn?: boolean;
}

/** A row of the organisation admins' members list. */
export interface AccountListing extends User {
  folderCount: number;
}

/**
 * What the sign-in steps check before they answer: the account's id and its login secret and
 * authenticator. The rest of the account is read only once a step has passed.
 */
export type SignInCandidate = Pick<User, 'id' | 'passwordHash' | 'kdfParams' | 'is2faEnabled' | 'totpSecret'>;

/** The sign-in look-up's row: an account's five columns, or all null for a name without one. */
type SignInLookupRow = { [Column in 'id' | 'password_hash' | 'kdf_params' | 'is_2fa_enabled' | 'totp_secret']: UserRow[Column] | null };
type SignInLookup = { [Field in keyof SignInCandidate]: Field extends 'is2faEnabled' ? boolean : SignInCandidate[Field] | null };

/** The login's new secret: argon2id of the authentication secret, and the block it was derived under. */
export interface LoginSecret {
  passwordHash: string;
  kdfParams: string;
}

/** Key data re-wrapped under the new login secret, for the key pair whose public key is given. */
export interface RewrappedKeyData {
  publicKeySpki: string;
  encryptedPrivateKey: string;
  kdfSalt: string;
}

/**
 * How an upgrade to the new login scheme ended: done; refused because the account was upgraded
 * already (by another request or the CLI); or refused because the key pair on the server is no
 * longer the one the browser re-wrapped (another tab made or restored one meanwhile).
 */
export type LoginUpgradeOutcome = 'upgraded' | 'already-upgraded' | 'key-pair-changed';

/** Another account has the name, in any letter case (the routes answer USERNAME_TAKEN). */
export class UsernameTakenError extends codedError('USERNAME_TAKEN') {
  constructor(options?: ErrorOptions) {
    super('Username already taken', options);
  }
}

/**
 * The admin's key pair as the server keeps it: the public key, and the private key wrapped under a
 * key derived from the login password (spec section 3, Key data). Never part of `User`, so the
 * wrapped key is read only by the route that hands it to its owner.
 */
export interface StoredKeyData {
  publicKeySpki: string | null;
  encryptedPrivateKey: string | null;
  kdfSalt: string | null;
}

/** The org_role column (of users and invitations) as a role: anything but 'admin' is a member. */
export function orgRoleOf(role: string): OrgRole {
  return role === 'admin' ? 'admin' : 'member';
}

// Run on every look-up's row, an unknown name's all-null row too, so that mapping costs the same either way.
const toSignInLookup = rowMapper<SignInLookupRow, SignInLookup>()({ flags: ['is_2fa_enabled'] });

const toUser = rowMapper<UserRow, User>()({
  flags: ['is_2fa_enabled', 'password_sign_in'],
  decode: { org_role: orgRoleOf },
  // The wrapped private key is read only by the route that hands it to its owner (findKeyData),
  // its recovery copy likewise (recoveryCopyOf).
  omit: ['encrypted_private_key', 'kdf_salt', 'recovery_copy', 'recovery_for_spki'],
});

/** The insert of a new account (also used inside the invitation's acceptance transaction). */
export function newUserValues(input: NewUser) {
  return {
    username: input.username,
    email: input.email,
    password_hash: input.passwordHash,
    kdf_params: input.kdfParams,
    is_2fa_enabled: 0,
    created_at: input.now,
    org_role: input.orgRole ?? 'member',
    display_name: input.displayName ?? null,
    invited_at: input.invitedAt ?? null,
    password_sign_in: input.passwordSignIn === false ? 0 : 1,
  };
}

export { toUser as userFromRow };

function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw new UsernameTakenError({ cause: error });
  throw error;
}

export function createUsersRepository(db: Kysely<Database>) {
  return {
    async findById(id: number): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },

    /**
     * Only the KDF parameter block of a name's account (pre-login): one column, so that a known
     * name's answer does no more work than an unknown one's (tests/server/login-timing.test.ts).
     * undefined: no account; null: an account not yet upgraded.
     */
    async kdfParamsOf(username: string): Promise<string | null | undefined> {
      const row = await db
        .selectFrom('users')
        .select('kdf_params')
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
      return row?.kdf_params;
    },

    /**
     * The sign-in steps' look-up of a name. It must cost the same whether or not the name has an
     * account, or the answer's timing tells which names exist. So it asks for a handful of short
     * columns, and joins them onto a one-row table: the database hands back one row of the same
     * columns either way, all null for an unknown name. Reading a whole account row, as
     * findByUsername does, made a known name's answer measurably slower (docs/security.md).
     */
    async signInCandidateOf(username: string): Promise<SignInCandidate | undefined> {
      const row = await db
        .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one_row'))
        .leftJoin('users', (join) => join.on(sql<string>`lower(username)`, '=', username.toLowerCase()))
        .select(['users.id', 'users.password_hash', 'users.kdf_params', 'users.is_2fa_enabled', 'users.totp_secret'])
        .executeTakeFirstOrThrow();
      const found = toSignInLookup(row);
      // A row with an id is an account's, whose password_hash is NOT NULL.
      return found.id === null ? undefined : (found as SignInCandidate);
    },

    async findByUsername(username: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
      return row && toUser(row);
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Throws UsernameTakenError when the name exists in any letter case. `kdfParams` null makes an
     * account of the old scheme (a hash of the password itself), as accounts were made before
     * zero-knowledge sign-in; only tests of the upgrade make such accounts now.
     */
    async create(input: NewUser): Promise<User> {
      try {
        const row = await db
          .insertInto('users')
          .values(newUserValues(input))
          .returningAll()
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (error) {
        rethrowUnique(error);
      }
    },

    /** Throws UsernameTakenError when another user has the new name. */
    async setLanguage(id: number, language: string): Promise<void> {
      await db.updateTable('users').set({ language }).where('id', '=', id).execute();
    },

    async updateProfile(id: number, changes: { username?: string; email?: string | null }): Promise<void> {
      const values: { username?: string; email?: string | null } = {};
      if (changes.username !== undefined) values.username = changes.username;
      if (changes.email !== undefined) values.email = changes.email;
      if (Object.keys(values).length === 0) return;
      try {
        await db.updateTable('users').set(values).where('id', '=', id).execute();
      } catch (error) {
        rethrowUnique(error);
      }
    },

    /** Replaces the login secret (password change, reset); the key data is the caller's business. */
    async setLoginSecret(id: number, secret: LoginSecret): Promise<void> {
      await db.updateTable('users').set({ password_hash: secret.passwordHash, kdf_params: secret.kdfParams }).where('id', '=', id).execute();
    },

    /**
     * Moves an account to a new login secret in one transaction: the key data re-wrapped under the
     * new block (when the browser sends it) and the new login secret, or neither. Two writes, key
     * data first; a failure of either (or of the process) rolls both back, so the old password
     * still signs in and still opens the old key data. Both are conditional: the account must still
     * have the block `from` (null: the old scheme, its upgrade; its unbound scheme-2 block: the move
     * to a block bound to its name), and the key data may only replace that of the same key pair.
     * `rename`: a new username written with the secret (its block is bound to the new name).
     */
    async upgradeLogin(id: number, secret: LoginSecret, keyData: RewrappedKeyData | null, from: string | null = null, rename?: string): Promise<LoginUpgradeOutcome> {
      const fromOperator = from === null ? 'is' : '=';
      let outcome: 'upgraded' | 'refused';
      try {
        outcome = await refusableTransaction(db, async (trx, refuse: (answer: 'refused') => never) => {
          if (keyData) {
            const rewrapped = await trx
              .updateTable('users')
              .set({ encrypted_private_key: keyData.encryptedPrivateKey, kdf_salt: keyData.kdfSalt })
              .where('id', '=', id)
              .where('kdf_params', fromOperator, from)
              .where('public_key_spki', '=', keyData.publicKeySpki)
              .executeTakeFirst();
            if (!claimedOne(rewrapped)) refuse('refused');
          }
          const upgraded = await trx
            .updateTable('users')
            .set({ password_hash: secret.passwordHash, kdf_params: secret.kdfParams, ...(rename === undefined ? {} : { username: rename }) })
            .where('id', '=', id)
            .where('kdf_params', fromOperator, from)
            .executeTakeFirst();
          if (!claimedOne(upgraded)) refuse('refused');
          return 'upgraded' as const;
        });
      } catch (error) {
        rethrowUnique(error);
      }
      if (outcome === 'upgraded') return outcome;
      // Rolled back; say why from what the row holds now.
      const row = await db.selectFrom('users').select('kdf_params').where('id', '=', id).executeTakeFirst();
      return !row || row.kdf_params !== from ? 'already-upgraded' : 'key-pair-changed';
    },

    async findKeyData(id: number): Promise<StoredKeyData | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['public_key_spki', 'encrypted_private_key', 'kdf_salt'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { publicKeySpki: row.public_key_spki, encryptedPrivateKey: row.encrypted_private_key, kdfSalt: row.kdf_salt };
    },

    /**
     * Sets the public key. A different key than the stored one starts a new key pair, so the wrapped
     * private key of the old pair is removed in the same statement: the server never pairs a public
     * key with a private key that does not match it (the profile then warns until it is saved).
     */
    async setPublicKey(id: number, publicKeySpki: string): Promise<void> {
      await db
        .updateTable('users')
        .set({
          public_key_spki: publicKeySpki,
          encrypted_private_key: sql<string | null>`case when public_key_spki = ${publicKeySpki} then encrypted_private_key else null end`,
          kdf_salt: sql<string | null>`case when public_key_spki = ${publicKeySpki} then kdf_salt else null end`,
        })
        .where('id', '=', id)
        .execute();
    },

    /** Makes the account an organisation admin (single sign-on's admin group; never the other way). */
    async setOrgRole(id: number, role: 'admin'): Promise<void> {
      await db.updateTable('users').set({ org_role: role }).where('id', '=', id).execute();
    },

    /** The private key under the account's recovery key, answered only while it is the account's key pair's. */
    async recoveryCopyOf(id: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('users')
        .select('recovery_copy')
        .where('id', '=', id)
        .whereRef('recovery_for_spki', '=', 'public_key_spki')
        .executeTakeFirst();
      return row?.recovery_copy ?? undefined;
    },

    /** Replaces the recovery copy, only while `forSpki` is still the account's key pair; false otherwise. */
    async setRecoveryCopy(id: number, copy: string, forSpki: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ recovery_copy: copy, recovery_for_spki: forSpki })
        .where('id', '=', id)
        .where('public_key_spki', '=', forSpki)
        .executeTakeFirst();
      return changedRows(result) === 1;
    },

    async setEncryptedPrivateKey(id: number, data: { encryptedPrivateKey: string; kdfSalt: string }): Promise<void> {
      await db
        .updateTable('users')
        .set({ encrypted_private_key: data.encryptedPrivateKey, kdf_salt: data.kdfSalt })
        .where('id', '=', id)
        .execute();
    },

    /** Every account with the number of folders it owns, oldest first (the members page). */
    async listWithFolderCounts(): Promise<AccountListing[]> {
      const rows = await db
        .selectFrom('users')
        .selectAll('users')
        .select((eb) => eb.selectFrom('folders').whereRef('folders.owner_id', '=', 'users.id').select((inner) => inner.fn.countAll<number | string>().as('n')).as('folder_count'))
        .orderBy('users.id')
        .execute();
      return rows.map((row) => ({ ...toUser(row), folderCount: Number(row.folder_count ?? 0) }));
    },

    /** Active accounts, oldest first: the directory folder owners pick members from. */
    async listActive(): Promise<User[]> {
      const rows = await db.selectFrom('users').selectAll().where('disabled_at', 'is', null).orderBy('id').execute();
      return rows.map(toUser);
    },

    /**
     * Disables an account and ends its sessions in one transaction. Refused (nothing changed) when
     * it would leave no active organisation admin: the count is taken inside the transaction after
     * the write, with the admins' rows locked first, so two admins disabling each other at once
     * cannot both succeed.
     */
    async disable(id: number, now: number): Promise<'disabled' | 'already-disabled' | 'last-admin' | 'not-found'> {
      return refusableTransaction(db, async (trx, refuse: (answer: 'last-admin') => never) => {
        // A no-op write to every active admin's row locks them (PostgreSQL row locks; SQLite's
        // write lock), so a concurrent disable waits here and then counts what this one left.
        await trx.updateTable('users').set({ org_role: sql<string>`org_role` }).where('org_role', '=', 'admin').where('disabled_at', 'is', null).execute();
        const changed = await trx.updateTable('users').set({ disabled_at: now }).where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();
        if (!claimedOne(changed)) {
          const row = await trx.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
          return row ? 'already-disabled' : 'not-found';
        }
        const admins = await trx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_role', '=', 'admin')
          .where('disabled_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(admins.n) === 0) refuse('last-admin');
        await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
        await trx.deleteFrom('pending_logins').where('user_id', '=', id).execute();
        return 'disabled' as const;
      });
    },

    /** Enables a disabled account; false when there is no such account. */
    async enable(id: number): Promise<boolean> {
      const changed = await db.updateTable('users').set({ disabled_at: null }).where('id', '=', id).executeTakeFirst();
      return claimedOne(changed);
    },

    /** Stores a pending secret (enabled false), activates it (true), or clears 2FA (null, false). */
    async setTotp(id: number, secret: string | null, enabled: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ totp_secret: secret, is_2fa_enabled: enabled ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
