// The signed-in user's own record: read it, change username and e-mail (current password needed).
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../../auth/passwords.ts';
import { UsernameTakenError } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { profileUpdateBody, userResponse } from '../../../contract/auth.ts';
import { toUserResponse } from './user-response.ts';
import { accountLimitKey } from './limit-keys.ts';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

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
      const { current_password, username, email } = request.body;
      const attempt = await limiter.reserve(rules.account('password', accountLimitKey(user), request.ip));
      if (!(await verifyPassword(user.passwordHash, current_password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
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
      return toUserResponse(updated);
    },
  );
}
