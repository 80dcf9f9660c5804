// The signed-in user's own record: read it, change username and e-mail (the current password's
// authentication secret needed).
import type { FastifyInstance } from 'fastify';
import { UsernameTakenError } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { profileUpdateBody, userResponse } from '../../../contract/auth.ts';
import { toUserResponse } from './user-response.ts';
import { requireAuthSecret } from './passwords.ts';

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
      const { current_auth_secret, username, email } = request.body;
      await requireAuthSecret(app, user, current_auth_secret, request.ip);
      try {
        await repos.users.updateProfile(user.id, {
          ...(username !== undefined ? { username } : {}),
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
}
