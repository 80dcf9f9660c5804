// Re-entering the login password (before sensitive actions), changing it, and moving an account of
// the old scheme to the new one. The password itself never arrives here, only the authentication
// secret derived from it (server/auth/login-secret.ts); the one exception is upgrade-login, the
// last call that carries an old account's password.
import type { FastifyInstance } from 'fastify';
import { authSecretMatches, hasBoundKdfParams, hashAuthSecret, isNewAccountKdfParams, usesAuthSecret } from '../../auth/login-secret.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import type { User } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { accountLimitKey } from './limit-keys.ts';
import { bindLoginBody, changePasswordBody, upgradeLoginBody } from './schemas.ts';
import { authSecretBody, signedInResponse } from '../../../contract/auth.ts';
import { detailResponse, verifiedResponse } from '../../../contract/common.ts';
import { toUserResponse } from './user-response.ts';

/** A new block must be bound to this account's name, or it would not sign in as it. */
export function requireBoundTo(user: Pick<User, 'username'>, kdfParams: string): void {
  if (!isNewAccountKdfParams(kdfParams, user.username)) throw new ApiError('KDF_PARAMS_NOT_BOUND');
}

/**
 * Checks a re-entered password's authentication secret, charged to the account's and the address's
 * counters. An account not yet upgraded cannot be checked this way (its hash is of the password):
 * it must sign in again, which upgrades it.
 */
export async function requireAuthSecret(app: FastifyInstance, user: User, authSecret: string, ip: string): Promise<void> {
  if (!usesAuthSecret(user)) throw new ApiError('SIGN_IN_UPGRADE_REQUIRED');
  const { limiter, rules } = app.attempts;
  const attempt = await limiter.reserve(rules.account('password', accountLimitKey(user), ip));
  if (!(await authSecretMatches(user, authSecret))) throw new ApiError('INCORRECT_PASSWORD');
  await attempt.succeeded();
}

export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

  routes.post(
    '/verify-password',
    { schema: { body: authSecretBody, response: { 200: verifiedResponse } } },
    async (request) => {
      await requireAuthSecret(app, signedIn(request).user, request.body.auth_secret, request.ip);
      return { verified: true as const };
    },
  );

  routes.post(
    '/change-password',
    { schema: { body: changePasswordBody, response: { 200: detailResponse } } },
    async (request) => {
      const { user, session } = signedIn(request);
      const { old_auth_secret, new_auth_secret, new_kdf_params } = request.body;
      await requireAuthSecret(app, user, old_auth_secret, request.ip);
      requireBoundTo(user, new_kdf_params);
      await repos.users.setLoginSecret(user.id, { passwordHash: await hashAuthSecret(new_auth_secret), kdfParams: new_kdf_params });
      // Whoever else knew the old password is signed out everywhere; this browser stays in.
      await repos.sessions.deleteForUser(user.id, session.id);
      await app.activity.record(user.id, 'password.changed', { ip: request.ip });
      return { detail: 'Password changed' };
    },
  );

  routes.post(
    '/upgrade-login',
    { schema: { body: upgradeLoginBody, response: { 200: signedInResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      if (usesAuthSecret(user)) throw new ApiError('LOGIN_ALREADY_UPGRADED');
      const { password, auth_secret, kdf_params, private_key } = request.body;
      requireBoundTo(user, kdf_params);
      const attempt = await limiter.reserve(rules.account('password', accountLimitKey(user), request.ip));
      if (!(await verifyPassword(user.passwordHash, password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
      const keyData = private_key
        ? { publicKeySpki: private_key.public_key_spki, encryptedPrivateKey: private_key.encryptedPrivateKey, kdfSalt: private_key.kdfSalt }
        : null;
      const outcome = await repos.users.upgradeLogin(user.id, { passwordHash: await hashAuthSecret(auth_secret), kdfParams: kdf_params }, keyData);
      if (outcome === 'already-upgraded') throw new ApiError('LOGIN_ALREADY_UPGRADED');
      if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
      if (keyData) await app.activity.record(user.id, 'private_key.stored', { ip: request.ip });
      // The last account of the old scheme closes the password sign-in for good.
      await repos.oldSchemeSignIn.closeWhenNoneLeft(app.now());
      const upgraded = await repos.users.findById(user.id);
      if (!upgraded) throw new ApiError('SESSION_EXPIRED');
      return { user: toUserResponse(upgraded) };
    },
  );

  // The move of an account whose block is not bound to its name (scheme 2) to one that is, right
  // after a sign-in with the old block: the same conditional transaction as the upgrade above.
  routes.post(
    '/bind-login',
    { schema: { body: bindLoginBody, response: { 200: signedInResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      if (hasBoundKdfParams(user)) throw new ApiError('LOGIN_ALREADY_UPGRADED');
      const { auth_secret, new_auth_secret, new_kdf_params, private_key } = request.body;
      await requireAuthSecret(app, user, auth_secret, request.ip);
      requireBoundTo(user, new_kdf_params);
      const keyData = private_key
        ? { publicKeySpki: private_key.public_key_spki, encryptedPrivateKey: private_key.encryptedPrivateKey, kdfSalt: private_key.kdfSalt }
        : null;
      const outcome = await repos.users.upgradeLogin(user.id, { passwordHash: await hashAuthSecret(new_auth_secret), kdfParams: new_kdf_params }, keyData, user.kdfParams);
      if (outcome === 'already-upgraded') throw new ApiError('LOGIN_CHANGED');
      if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
      if (keyData) await app.activity.record(user.id, 'private_key.stored', { ip: request.ip });
      const moved = await repos.users.findById(user.id);
      if (!moved) throw new ApiError('SESSION_EXPIRED');
      return { user: toUserResponse(moved) };
    },
  );
}
