// Passkeys (docs/api.md "Passkeys"): sign-in with a discoverable credential (both factors at once),
// re-authentication with the password or a passkey, and the signed-in user's list: add, rename,
// remove, each only within PASSKEY_REAUTH_TTL_MS of a re-authentication of this session. The
// ceremonies themselves are server/auth/passkeys/ceremonies.ts. Every refusal of an assertion or
// registration is written to the account's activity log (code and step only: no credential data).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignedIn } from '../../plugins/sessions.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import type { StoredPasskey, User } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { sha256Hex } from '../../auth/tokens.ts';
import {
  AssertionRefused,
  authenticationOptions,
  registrationOptions,
  verifyAssertion,
  verifyRegistration,
  type CeremonyContext,
} from '../../auth/passkeys/ceremonies.ts';
import { PasskeyError } from '../../auth/passkeys/errors.ts';
import { relyingParty } from '../../auth/passkeys/relying-party.ts';
import { requireAuthSecret } from './passwords.ts';
import { toUserResponse } from './user-response.ts';
import {
  MAX_PASSKEYS_PER_ACCOUNT,
  PASSKEY_REAUTH_TTL_MS,
  passkeyAssertionBody,
  passkeyIdParams,
  passkeyList,
  passkey as passkeySchema,
  passkeyRegistrationBody,
  passkeyRenameBody,
  passkeySignInResponse,
  reauthBody,
  reauthResponse,
  webAuthnOptionsResponse,
  type Passkey,
} from '../../../contract/passkeys.ts';
import { detailResponse } from '../../../contract/common.ts';

type Step = 'sign_in' | 'reauth' | 'register';

export async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const { limiter, rules } = app.attempts;

  const context = (request: FastifyRequest): CeremonyContext => ({ repos, now: app.now(), party: relyingParty(request, app.config.publicUrl) });

  function toPasskeyResponse(passkey: StoredPasskey, user: User): Passkey {
    return {
      id: passkey.id,
      name: passkey.name,
      created_at: new Date(passkey.createdAt).toISOString(),
      last_used_at: passkey.lastUsedAt === null ? null : new Date(passkey.lastUsedAt).toISOString(),
      unlocks_keys: unlocksKeys(passkey, user),
    };
  }

  function unlocksKeys(passkey: StoredPasskey, user: User): boolean {
    return passkey.wrappedPrivateKey !== null && user.publicKeySpki !== null && passkey.wrappedForSpki === user.publicKeySpki;
  }

  /** The passkey's copy of the private key, when it belongs to the account's current key pair. */
  function wrappedCopy(passkey: StoredPasskey, user: User) {
    return unlocksKeys(passkey, user) && passkey.wrappedPrivateKey !== null
      ? { encryptedPrivateKey: passkey.wrappedPrivateKey, credential_id: passkey.credentialId }
      : null;
  }

  /** Written once the refusal has gone out, like the password step's (login.ts). */
  function recordRefusal(reply: FastifyReply, request: FastifyRequest, userId: number | null, step: Step, code: string): void {
    if (userId === null) {
      app.log.info({ step, code }, 'passkey refused (no account named)');
      return;
    }
    reply.raw.once('close', () =>
      app.background.run(
        () => app.activity.record(userId, 'passkey.failed', { ip: request.ip, details: { step, code } }),
        (error) => app.log.error({ err: error }, 'recording a refused passkey failed'),
      ),
    );
  }

  function requireFreshReauth({ session }: SignedIn): void {
    const at = session.reauthenticatedAt;
    if (at === null || app.now() - at > PASSKEY_REAUTH_TTL_MS) throw new PasskeyError('PASSKEY_REAUTH_REQUIRED');
  }

  // ---- sign-in (public) ----

  routes.post(
    '/passkeys/sign-in/options',
    { config: { public: true }, schema: { response: { 200: webAuthnOptionsResponse } } },
    async (request) => {
      // A challenge row per call: bounded per address like the pre-login look-ups.
      await limiter.reserve(rules.prelogin(request.ip));
      const ctx = context(request);
      return { options: await authenticationOptions(ctx, 'sign_in', { browserHash: sha256Hex(request.csrfToken) }) };
    },
  );

  routes.post(
    '/passkeys/sign-in',
    { config: { public: true }, schema: { body: passkeyAssertionBody, response: { 200: passkeySignInResponse } } },
    async (request, reply) => {
      const ctx = context(request);
      const attempt = await limiter.reserve(rules.passkeySignIn(request.ip));
      let passkey: StoredPasskey;
      try {
        passkey = await verifyAssertion(ctx, 'sign_in', { browserHash: sha256Hex(request.csrfToken) }, request.body.response);
      } catch (error) {
        if (!(error instanceof AssertionRefused)) throw error;
        recordRefusal(reply, request, error.userId, 'sign_in', error.error.code);
        throw error.error;
      }
      const user = await repos.users.findById(passkey.userId);
      if (!user) throw new PasskeyError('PASSKEY_NOT_FOUND');
      // The provider decides at every sign-in whether the person may still come in (group,
      // domain, an account it disabled): a passkey must not be a way around it. It unlocks the
      // keys after a single sign-on instead (/sso), and confirms within the session.
      if (await repos.ssoIdentities.hasIdentity(user.id)) {
        recordRefusal(reply, request, user.id, 'sign_in', 'PASSKEY_SIGN_IN_THROUGH_SSO');
        throw new PasskeyError('PASSKEY_SIGN_IN_THROUGH_SSO');
      }
      await attempt.succeeded();
      // A passkey with user verification is both factors: no authenticator code follows.
      await app.startSession(request, reply, user);
      await app.activity.record(user.id, 'sign_in.succeeded', { ip: request.ip, details: { second_factor: false, passkey: passkey.id } });
      return { user: toUserResponse(user), wrapped_private_key: wrappedCopy(passkey, user) };
    },
  );

  // ---- re-authentication (signed in) ----

  routes.post(
    '/passkeys/reauth/options',
    { schema: { response: { 200: webAuthnOptionsResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const ctx = context(request);
      return { options: await authenticationOptions(ctx, 'reauth', { userId: user.id }) };
    },
  );

  routes.post(
    '/reauth',
    { schema: { body: reauthBody, response: { 200: reauthResponse } } },
    async (request, reply) => {
      const auth = signedIn(request);
      const { user, session } = auth;
      let copy: ReturnType<typeof wrappedCopy> = null;
      if ('auth_secret' in request.body) {
        await requireAuthSecret(app, user, request.body.auth_secret, request.ip);
      } else {
        const ctx = context(request);
        try {
          const passkey = await verifyAssertion(ctx, 'reauth', { userId: user.id }, request.body.response);
          copy = wrappedCopy(passkey, user);
        } catch (error) {
          if (!(error instanceof AssertionRefused)) throw error;
          recordRefusal(reply, request, user.id, 'reauth', error.error.code);
          throw error.error;
        }
      }
      const now = app.now();
      await repos.sessions.markReauthenticated(session.id, now);
      return { until: new Date(now + PASSKEY_REAUTH_TTL_MS).toISOString(), wrapped_private_key: copy };
    },
  );

  // ---- the signed-in user's passkeys ----

  routes.get('/passkeys', { schema: { response: { 200: passkeyList } } }, async (request) => {
    const { user } = signedIn(request);
    const stored = await repos.passkeys.listForUser(user.id);
    return { passkeys: stored.map((passkey) => toPasskeyResponse(passkey, user)) };
  });

  routes.post(
    '/passkeys/register/options',
    { schema: { response: { 200: webAuthnOptionsResponse } } },
    async (request) => {
      const auth = signedIn(request);
      requireFreshReauth(auth);
      const ctx = context(request);
      if ((await repos.passkeys.listForUser(auth.user.id)).length >= MAX_PASSKEYS_PER_ACCOUNT) throw new PasskeyError('PASSKEY_LIMIT_REACHED');
      return { options: await registrationOptions(ctx, auth.user) };
    },
  );

  routes.post(
    '/passkeys',
    { schema: { body: passkeyRegistrationBody, response: { 200: passkeySchema } } },
    async (request, reply) => {
      const auth = signedIn(request);
      const { user } = auth;
      requireFreshReauth(auth);
      const ctx = context(request);
      const { name, response, wrapped_private_key: wrapped } = request.body;
      if (wrapped && wrapped.public_key_spki !== user.publicKeySpki) throw new ApiError('KEY_PAIR_CHANGED');
      let registration;
      try {
        registration = await verifyRegistration(ctx, user.id, response);
      } catch (error) {
        if (error instanceof PasskeyError) recordRefusal(reply, request, user.id, 'register', error.code);
        throw error;
      }
      const outcome = await repos.passkeys.add(
        { userId: user.id, ...registration, name, wrappedPrivateKey: wrapped?.encryptedPrivateKey ?? null, wrappedForSpki: wrapped?.public_key_spki ?? null, now: ctx.now },
        MAX_PASSKEYS_PER_ACCOUNT,
      );
      if (outcome.kind === 'limit-reached') throw new PasskeyError('PASSKEY_LIMIT_REACHED');
      if (outcome.kind === 'already-registered') throw new PasskeyError('PASSKEY_ALREADY_REGISTERED');
      await app.activity.record(user.id, 'passkey.added', { ip: request.ip, details: { passkey: outcome.passkey.id, name, unlocks_keys: wrapped !== undefined } });
      return toPasskeyResponse(outcome.passkey, user);
    },
  );

  routes.patch(
    '/passkeys/:id',
    { schema: { params: passkeyIdParams, body: passkeyRenameBody, response: { 200: passkeySchema } } },
    async (request) => {
      const auth = signedIn(request);
      requireFreshReauth(auth);
      const renamed = await repos.passkeys.rename(auth.user.id, request.params.id, request.body.name);
      if (!renamed) throw new PasskeyError('PASSKEY_NOT_FOUND');
      await app.activity.record(auth.user.id, 'passkey.renamed', { ip: request.ip, details: { passkey: renamed.id, name: renamed.name } });
      return toPasskeyResponse(renamed, auth.user);
    },
  );

  routes.delete(
    '/passkeys/:id',
    { schema: { params: passkeyIdParams, response: { 200: detailResponse } } },
    async (request) => {
      const auth = signedIn(request);
      requireFreshReauth(auth);
      const removed = await repos.passkeys.remove(auth.user.id, request.params.id);
      if (!removed) throw new PasskeyError('PASSKEY_NOT_FOUND');
      await app.activity.record(auth.user.id, 'passkey.removed', { ip: request.ip, details: { passkey: removed.id, name: removed.name } });
      return { detail: 'Passkey removed' };
    },
  );
}
