// The signed-in user's own record: read it, change username and e-mail (the current password's
// authentication secret needed). The account's parameter block is bound to its name (scheme 3),
// so a new name (other than in letter case) comes with the login re-keyed to a block bound to it,
// stored with the name in one transaction; without it the rename is refused.
import type { FastifyInstance } from 'fastify';
import { UsernameTakenError } from '../../db/repositories/index.ts';
import { ApiError, RequestValidationError } from '../../errors.ts';
import { isLanguageCode } from '../../../locales/languages.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { languageUpdateBody, profileUpdateBody, userResponse } from '../../../contract/auth.ts';
import { toUserResponse } from './user-response.ts';
import { requireAuthSecret, requireBoundTo } from './passwords.ts';
import { hashAuthSecret } from '../../auth/login-secret.ts';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.get(
    '/users/me',
    { schema: { response: { 200: userResponse } } },
    async (request) => toUserResponse(signedIn(request).user),
  );

  routes.put(
    '/users/me',
    { schema: { body: profileUpdateBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const { current_auth_secret, username, email, new_auth_secret, new_kdf_params, private_key } = request.body;
      await requireAuthSecret(app, user, current_auth_secret, request.ip);
      const renamed = username !== undefined && username.toLowerCase() !== user.username.toLowerCase();
      try {
        if (renamed) {
          if (new_auth_secret === undefined || new_kdf_params === undefined) throw new ApiError('KDF_PARAMS_NOT_BOUND');
          requireBoundTo({ username }, new_kdf_params);
          if (private_key !== undefined && private_key.kdfSalt !== new_kdf_params) throw new ApiError('KDF_PARAMS_NOT_BOUND');
          const keyData = private_key
            ? { publicKeySpki: private_key.public_key_spki, encryptedPrivateKey: private_key.encryptedPrivateKey, kdfSalt: private_key.kdfSalt }
            : null;
          const secret = { passwordHash: await hashAuthSecret(new_auth_secret), kdfParams: new_kdf_params };
          const outcome = await repos.users.upgradeLogin(user.id, secret, keyData, user.kdfParams, username);
          if (outcome === 'already-upgraded') throw new ApiError('LOGIN_CHANGED');
          if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
          if (keyData) await app.activity.record(user.id, 'private_key.stored', { ip: request.ip });
        }
        await repos.users.updateProfile(user.id, {
          ...(username !== undefined && !renamed ? { username } : {}),
          ...(email !== undefined ? { email } : {}),
        });
      } catch (error) {
        if (error instanceof UsernameTakenError) throw new ApiError('USERNAME_TAKEN');
        throw error;
      }
      const updated = await repos.users.findById(user.id);
      if (!updated) throw new ApiError('SESSION_EXPIRED');
      // Which fields changed, never their values (an e-mail address is personal data).
      const changed = [...(updated.username !== user.username ? ['username'] : []), ...(updated.email !== user.email ? ['email'] : [])];
      if (changed.length > 0) await app.activity.record(user.id, 'profile.updated', { ip: request.ip, details: { changed } });
      return toUserResponse(updated);
    },
  );

  // The language the account's notification e-mails are written in: the app sends it when the
  // signed-in person picks one. No password needed: it changes nothing of the account's security.
  routes.put('/users/me/language', { schema: { body: languageUpdateBody } }, async (request, reply) => {
    const { user } = signedIn(request);
    const { language } = request.body;
    if (!isLanguageCode(language)) throw new RequestValidationError([{ loc: ['body', 'language'], msg: 'This server does not offer that language' }]);
    await repos.users.setLanguage(user.id, language);
    return reply.code(204).send();
  });
}
