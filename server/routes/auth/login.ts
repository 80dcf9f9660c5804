// Sign-in (pre-login, the secret step, then the authenticator-code step for users with 2FA) and
// sign-out. The secret step takes the authentication secret the client derived from the password
// under the pre-login answer's parameters (server/auth/login-secret.ts); the password itself only
// from an account not yet upgraded, which answers SIGN_IN_UPGRADE_REQUIRED to a secret, and only
// while this server still takes passwords (server/auth/old-scheme-sign-in.ts).
//
// The code step is accepted only from the browser that passed the password step in the last five
// minutes (identified by the hash of its csrftoken cookie), so knowing a username and racing a
// victim's password step gains nothing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isActiveAccount } from '../../accounts/account-standing.ts';
import { AccountError } from '../../accounts/errors.ts';
import { authSecretMatches, usesAuthSecret } from '../../auth/login-secret.ts';
import { oldSchemeSignInOpen } from '../../auth/old-scheme-sign-in.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { preloginParams } from '../../auth/prelogin.ts';
import { sha256Hex } from '../../auth/tokens.ts';
import { matchTotpStep } from '../../auth/totp.ts';
import { ApiError } from '../../errors.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { loginBody, loginCodeBody, loginResponse, preloginBody, preloginResponse, signedInResponse } from '../../../contract/auth.ts';
import { logoutResponse } from '../../../contract/sso.ts';
import { SsoError } from '../../auth/sso/errors.ts';
import { toUserResponse } from './user-response.ts';

export const PENDING_LOGIN_TTL_MS = 5 * 60_000;
// Accepted steps older than the ±1-step window can never match again; keep a margin.
const USED_STEP_RETENTION_MS = 10 * 60_000;
// Account ids start at 1 in both databases.
const NO_ACCOUNT_ID = 0;

export async function loginRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

  /**
   * A failed attempt's activity entry, written once the refusal has gone out (app.background);
   * started any sooner, its first query would still run ahead of the answer.
   */
  function recordAfterAnswer(reply: FastifyReply, userId: number, kind: 'sign_in.failed' | 'sign_in.second_factor_failed', ip: string): void {
    reply.raw.once('close', () =>
      app.background.run(
        () => app.activity.record(userId, kind, { ip }),
        (error) => app.log.error({ err: error }, 'recording a failed sign-in failed'),
      ),
    );
  }

  routes.post(
    '/prelogin',
    { config: { public: true }, schema: { body: preloginBody, response: { 200: preloginResponse } } },
    async (request) => {
      await limiter.reserve(rules.prelogin(request.ip));
      const { username } = request.body;
      const kdfParams = await repos.users.kdfParamsOf(username);
      return { kdf_params: preloginParams(kdfParams, username, await repos.serverSecrets.get('prelogin')) };
    },
  );

  routes.post(
    '/token',
    { config: { public: true }, schema: { body: loginBody, response: { 200: loginResponse } } },
    async (request, reply) => {
      if (!app.config.passwordSignIn) throw new SsoError('PASSWORD_SIGN_IN_OFF');
      const { username, auth_secret, password } = request.body;
      // Asked on every sign-in, whatever the name, so that asking costs every answer the same.
      const oldSchemeOpen = await oldSchemeSignInOpen(app);
      if (password !== undefined && !oldSchemeOpen) throw new ApiError('OLD_SCHEME_SIGN_IN_CLOSED');
      const attempt = await limiter.reserve(rules.account('login', username, request.ip));
      const candidate = await repos.users.signInCandidateOf(username);
      const oldScheme = oldSchemeOpen && candidate !== undefined && !usesAuthSecret(candidate);
      // The attempt stays counted: this answer tells that the name exists, so it is bounded like a guess.
      if (auth_secret !== undefined && oldScheme) throw new ApiError('SIGN_IN_UPGRADE_REQUIRED');
      const passwordMatches =
        auth_secret !== undefined
          ? await authSecretMatches(candidate, auth_secret)
          : await verifyPassword(oldScheme ? candidate.passwordHash : undefined, password ?? '');
      if (!candidate || !passwordMatches) {
        // Recorded after the answer: written before it, it made a known name's refusal slower than
        // an unknown one's, which told which names exist.
        if (candidate) recordAfterAnswer(reply, candidate.id, 'sign_in.failed', request.ip);
        throw new ApiError('INCORRECT_CREDENTIALS');
      }
      // Read whole only now: before the check, reading it made a known name's refusal slower.
      const user = await repos.users.findById(candidate.id);
      // Removed since the look-up: there is no account to sign in to.
      if (!user) throw new ApiError('INCORRECT_CREDENTIALS');
      await attempt.succeeded();
      // Told only to someone who knows the password: to anyone else a disabled account's name
      // answers like any other.
      if (!isActiveAccount(user)) throw new AccountError('ACCOUNT_DISABLED');

      if (user.is2faEnabled) {
        const now = app.now();
        await repos.pendingLogins.deleteExpired(now);
        await repos.pendingLogins.save(user.id, sha256Hex(request.csrfToken), now + PENDING_LOGIN_TTL_MS);
        return { message: 'OTP code required' as const, username: user.username };
      }
      await app.startSession(request, reply, user);
      await app.activity.record(user.id, 'sign_in.succeeded', { ip: request.ip, details: { second_factor: false } });
      return { user: toUserResponse(user) };
    },
  );

  routes.post(
    '/token/2fa',
    { config: { public: true }, schema: { body: loginCodeBody, response: { 200: signedInResponse } } },
    async (request, reply) => {
      const { username, code } = request.body;
      const attempt = await limiter.reserve(rules.account('code', username, request.ip));
      const now = app.now();
      const browserHash = sha256Hex(request.csrfToken);
      const candidate = await repos.users.signInCandidateOf(username);
      const secret = candidate?.is2faEnabled ? candidate.totpSecret : null;
      // Asked for every name, with an id no account has when there is none: asked only for
      // accounts with 2FA, it made their refusals slower, which told which names have it.
      const pending = await repos.pendingLogins.isPending(candidate?.id ?? NO_ACCOUNT_ID, browserHash, now);
      // Only a browser that passed the password step gets this far, and it knows the name exists.
      const step = pending && secret !== null ? matchTotpStep(secret, code, now) : null;
      const accepted = candidate !== undefined && step !== null && (await repos.totpSteps.markUsed(candidate.id, step, now));
      if (!candidate || !accepted) {
        if (candidate) recordAfterAnswer(reply, candidate.id, 'sign_in.second_factor_failed', request.ip);
        throw new ApiError('INVALID_TOTP_CODE');
      }
      const user = await repos.users.findById(candidate.id);
      if (!user) throw new ApiError('INVALID_TOTP_CODE');
      await attempt.succeeded();
      await repos.pendingLogins.remove(user.id, browserHash);
      if (!isActiveAccount(user)) throw new AccountError('ACCOUNT_DISABLED');
      await repos.totpSteps.deleteUsedBefore(now - USED_STEP_RETENTION_MS);
      await app.startSession(request, reply, user);
      await app.activity.record(user.id, 'sign_in.succeeded', { ip: request.ip, details: { second_factor: true } });
      return { user: toUserResponse(user) };
    },
  );

  routes.post(
    '/logout',
    { config: { public: true }, schema: { response: { 200: logoutResponse } } },
    async (request, reply) => {
      // A session started by single sign-on ends the provider's too, where it offers that: the
      // browser goes there next (RP-initiated logout) and comes back to the sign-in page.
      const sso = request.auth.state === 'signed-in' && request.auth.session.sso;
      await app.endSession(request, reply);
      const endSessionUrl = sso && app.ssoProvider ? await app.ssoProvider.endSessionUrl() : null;
      return { detail: 'Logged out', end_session_url: endSessionUrl };
    },
  );
}
