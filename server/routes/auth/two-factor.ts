// Turning TOTP two-factor authentication on and off for the signed-in user. Setup stores a
// pending secret; only a correct code from it (each code once) enables it.
import type { FastifyInstance } from 'fastify';
import { matchTotpStep, newTotpSecret, totpUri } from '../../auth/totp.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { accountLimitKey } from './limit-keys.ts';
import { authSecretBody, codeBody, totpSetupResponse, userResponse } from '../../../contract/auth.ts';
import { requireAuthSecret } from './passwords.ts';
import { toUserResponse } from './user-response.ts';

export async function twoFactorRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

  async function reloadedUser(id: number) {
    const user = await repos.users.findById(id);
    if (!user) throw new ApiError('SESSION_EXPIRED');
    return toUserResponse(user);
  }

  routes.post(
    '/2fa/setup',
    { schema: { response: { 200: totpSetupResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      if (user.is2faEnabled) throw new ApiError('TWO_FACTOR_ALREADY_ENABLED');
      const secret = newTotpSecret();
      await repos.users.setTotp(user.id, secret, false);
      return { secret, otp_uri: totpUri(secret, user.username) };
    },
  );

  routes.post(
    '/2fa/enable',
    { schema: { body: codeBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      if (user.is2faEnabled) throw new ApiError('TWO_FACTOR_ALREADY_ENABLED');
      if (user.totpSecret === null) throw new ApiError('TWO_FACTOR_NOT_STARTED');
      const attempt = await limiter.reserve(rules.account('code', accountLimitKey(user), request.ip));
      const now = app.now();
      const step = matchTotpStep(user.totpSecret, request.body.code, now);
      const accepted = step !== null && (await repos.totpSteps.markUsed(user.id, step, now));
      if (!accepted) throw new ApiError('INVALID_TOTP_CODE');
      await attempt.succeeded();
      await repos.users.setTotp(user.id, user.totpSecret, true);
      await app.activity.record(user.id, 'two_factor.enabled', { ip: request.ip });
      return reloadedUser(user.id);
    },
  );

  routes.post(
    '/2fa/disable',
    { schema: { body: authSecretBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      await requireAuthSecret(app, user, request.body.auth_secret, request.ip);
      await repos.users.setTotp(user.id, null, false);
      await repos.pendingLogins.deleteForUser(user.id);
      // Forget accepted steps too, so a code of a new secret is never mistaken for a replay.
      await repos.totpSteps.deleteForUser(user.id);
      await app.activity.record(user.id, 'two_factor.disabled', { ip: request.ip });
      return reloadedUser(user.id);
    },
  );
}
