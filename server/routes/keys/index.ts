// The signed-in admin's key pair (docs/api.md, "Keys"), mounted under /api/auth. The server keeps
// the public key (uploaders encrypt for it) and the private key wrapped under the login password;
// it never receives the password-derived key or a usable private key.
import type { FastifyInstance } from 'fastify';
import { publicKeyFingerprint } from '../../activity/key-fingerprint.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { userResponse } from '../../../contract/auth.ts';
import { encryptedKeyResponse, publicKeyResponse } from '../../../contract/keys.ts';
import { toUserResponse } from '../auth/user-response.ts';
import { KeyNotFoundError } from './errors.ts';
import { encryptedKeyBody, publicKeyBody } from './schemas.ts';

export async function keyRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  async function currentUserResponse(id: number) {
    const updated = await repos.users.findById(id);
    if (!updated) throw new ApiError('SESSION_EXPIRED');
    return toUserResponse(updated);
  }

  routes.put(
    '/public-key',
    { schema: { body: publicKeyBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      await repos.users.setPublicKey(user.id, request.body.public_key_spki);
      // The key's fingerprint tells a new pair (another fingerprint) from the same key stored again.
      await app.activity.record(user.id, 'public_key.stored', { ip: request.ip, details: { fingerprint: publicKeyFingerprint(request.body.public_key_spki) } });
      return currentUserResponse(user.id);
    },
  );

  routes.get(
    '/public-key',
    { schema: { response: { 200: publicKeyResponse } } },
    async (request) => {
      const keys = await repos.users.findKeyData(signedIn(request).user.id);
      if (!keys?.publicKeySpki) throw new KeyNotFoundError('PUBLIC_KEY_NOT_FOUND');
      return { public_key_spki: keys.publicKeySpki };
    },
  );

  routes.get(
    '/users/me/encrypted-key',
    { schema: { response: { 200: encryptedKeyResponse } } },
    async (request, reply) => {
      const keys = await repos.users.findKeyData(signedIn(request).user.id);
      // Only ever for its owner, and never kept by a browser cache or a proxy.
      reply.header('cache-control', 'no-store');
      if (!keys?.encryptedPrivateKey || !keys.kdfSalt) throw new KeyNotFoundError('ENCRYPTED_KEY_NOT_FOUND');
      return { encryptedPrivateKey: keys.encryptedPrivateKey, kdfSalt: keys.kdfSalt };
    },
  );

  routes.put(
    '/users/me/encrypted-key',
    { schema: { body: encryptedKeyBody, response: { 200: userResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const { encryptedPrivateKey, kdfSalt } = request.body;
      await repos.users.setEncryptedPrivateKey(user.id, { encryptedPrivateKey, kdfSalt });
      await app.activity.record(user.id, 'private_key.stored', { ip: request.ip });
      return currentUserResponse(user.id);
    },
  );
}
