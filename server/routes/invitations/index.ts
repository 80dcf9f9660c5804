// The invitee's side of an invitation, mounted at /api/invitations, public (the token is the
// capability): open shows what the invitation is for; accept creates the account from the login
// secret the browser derived and signs it in, so the browser goes on to two-factor setup and key
// pair creation. The token travels in the body, never in a URL the server logs.
import type { FastifyInstance } from 'fastify';
import { acceptInvitation, openInvitation } from '../../accounts/invitations.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { signedInResponse } from '../../../contract/auth.ts';
import { acceptInvitationBody, invitationTokenBody, openInvitationResponse } from '../../../contract/organisation.ts';
import { toUserResponse } from '../auth/user-response.ts';

export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = { repos: app.repos, now: app.now };

  routes.post('/open', { schema: { body: invitationTokenBody, response: { 200: openInvitationResponse } } }, async (request) => {
    const invitation = await openInvitation(deps, request.body.token);
    return {
      email: invitation.email,
      display_name: invitation.displayName,
      org_role: invitation.orgRole,
      expires_at: new Date(invitation.expiresAt).toISOString(),
    };
  });

  routes.post('/accept', { schema: { body: acceptInvitationBody, response: { 200: signedInResponse } } }, async (request, reply) => {
    const { token, username, kdf_params, auth_secret } = request.body;
    const { user, invitation } = await acceptInvitation(deps, { token, username, kdfParams: kdf_params, authSecret: auth_secret });
    await app.startSession(request, reply, user);
    await app.activity.record(user.id, 'account.joined', { ip: request.ip, details: { invitation_id: invitation.id } });
    return { user: toUserResponse(user) };
  });
}
