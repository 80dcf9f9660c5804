// Re-entering the login password (before sensitive actions) and changing it.
import type { FastifyInstance } from 'fastify';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { accountLimitKey } from './limit-keys.ts';
import { changePasswordBody, passwordBody } from '../../../contract/auth.ts';
import { detailResponse, verifiedResponse } from '../../../contract/common.ts';

export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

  routes.post(
    '/verify-password',
    { schema: { body: passwordBody, response: { 200: verifiedResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const attempt = await limiter.reserve(rules.account('password', accountLimitKey(user), request.ip));
      if (!(await verifyPassword(user.passwordHash, request.body.password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
      return { verified: true as const };
    },
  );

  routes.post(
    '/change-password',
    { schema: { body: changePasswordBody, response: { 200: detailResponse } } },
    async (request) => {
      const { user, session } = signedIn(request);
      const attempt = await limiter.reserve(rules.account('password', accountLimitKey(user), request.ip));
      if (!(await verifyPassword(user.passwordHash, request.body.old_password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
      await repos.users.setPasswordHash(user.id, await hashPassword(request.body.new_password));
      // Whoever else knew the old password is signed out everywhere; this browser stays in.
      await repos.sessions.deleteForUser(user.id, session.id);
      return { detail: 'Password changed' };
    },
  );
}
