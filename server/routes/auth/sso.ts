// Single sign-on (docs/api.md "Single sign-on"): what the sign-in page offers, the start (a
// redirect to the provider, with PKCE, state and nonce kept in this browser) and the provider's
// callback, which signs the browser in and sends it to the app's /sso page (or back to /login with
// the refusal's code). A session it starts counts as re-authenticated at its start. Who may sign in is decided at every sign-in (server/auth/sso/accounts.ts).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isActiveAccount } from '../../accounts/account-standing.ts';
import { AccountError } from '../../accounts/errors.ts';
import { accountForSignIn } from '../../auth/sso/accounts.ts';
import { SsoError } from '../../auth/sso/errors.ts';
import { setFlowCookie, takeFlowCookie } from '../../auth/sso/flow-cookie.ts';
import { HttpError } from '../../errors.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { ssoSettingsResponse, ssoStartQuery } from '../../../contract/sso.ts';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function ssoRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const config = app.config.sso;
  const provider = app.ssoProvider;

  routes.get(
    '/sso',
    { config: { public: true }, schema: { response: { 200: ssoSettingsResponse } } },
    async () => ({ sso: config ? { name: config.name } : null, password_sign_in: app.config.passwordSignIn }),
  );

  /** Back to the sign-in page with the refusal's code (the page words it); the cause to the log. */
  function refuse(reply: FastifyReply, error: unknown) {
    if (!(error instanceof HttpError)) throw error;
    const cause = error.cause instanceof Error ? error.cause : undefined;
    // openid-client's errors name what failed (a state or nonce check, the provider's answer); no token is in them.
    const causeForLog = cause && { name: cause.name, code: (cause as { code?: unknown }).code, message: cause.message };
    app.log.warn({ code: error.code, cause: causeForLog }, 'single sign-on refused');
    return reply.redirect(`/login?sso_error=${encodeURIComponent(error.code)}`, 303);
  }

  // `next`: a signed-in person signing in again (re-authentication, e.g. before adding a passkey)
  // comes back to where they were, through /sso, which unlocks the key first.
  routes.get('/sso/start', { config: { public: true }, schema: { querystring: ssoStartQuery } }, async (request, reply) => {
    if (!provider) throw new SsoError('SSO_NOT_CONFIGURED');
    try {
      const { flow, url } = await provider.startSignIn({ signInAgain: request.query.next !== undefined });
      setFlowCookie(reply, flow, app.now(), app.config.cookieSecure, request.query.next ?? null);
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 303);
    } catch (error) {
      return refuse(reply, error);
    }
  });

  routes.get('/sso/callback', { config: { public: true } }, async (request, reply) => {
    if (!provider || !config) throw new SsoError('SSO_NOT_CONFIGURED');
    reply.header('cache-control', 'no-store');
    const now = app.now();
    const flow = takeFlowCookie(request, reply, now);
    try {
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      const state = query.get('state');
      if (!flow || state === null || !sameText(state, flow.state)) throw new SsoError('SSO_FLOW_INVALID');
      const callbackUrl = new URL(config.redirectUri);
      callbackUrl.search = query.toString();
      const claims = await provider.finishSignIn(callbackUrl, flow);
      const { user, created } = await accountForSignIn(repos, config, claims, now);
      if (!isActiveAccount(user)) throw new AccountError('ACCOUNT_DISABLED');
      await app.startSession(request, reply, user, { sso: true });
      await app.activity.record(user.id, 'sign_in.succeeded', { ip: request.ip, details: { second_factor: false, sso: true, new_account: created } });
      return reply.redirect(flow.next === null ? '/sso' : `/sso?next=${encodeURIComponent(flow.next)}`, 303);
    } catch (error) {
      return refuse(reply, error);
    }
  });
}
