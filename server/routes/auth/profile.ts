// The signed-in user's own record: read it, change username and e-mail (current password needed).
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../../auth/passwords.ts';
import { UsernameTakenError } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { profileUpdateBody, userResponse } from './schemas.ts';
import { toUserResponse } from './user-response.ts';
import { accountLimitKey } from './limit-keys.ts';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos, failureLimits } = app;

  routes.get(
    '/users/me',
    { onRequest: app.requireUser, schema: { response: { 200: userResponse } } },
    async (request) => toUserResponse(signedIn(request).user),
  );

  routes.put(
    '/users/me',
    { onRequest: app.requireUser, schema: { body: profileUpdateBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const { current_password, username, email } = request.body;
      const account = accountLimitKey(user);
      await failureLimits.check('password', account, request.ip);
      if (!(await verifyPassword(user.passwordHash, current_password))) {
        await failureLimits.fail('password', account, request.ip);
        throw new ApiError('INCORRECT_PASSWORD');
      }
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
