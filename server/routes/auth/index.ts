// Authentication and profile routes, mounted at /api/auth.
import type { FastifyInstance } from 'fastify';
import { keyRoutes } from '../keys/index.ts';
import { deviceRoutes } from './devices.ts';
import { loginRoutes } from './login.ts';
import { orgRecoveryCopyRoutes } from './org-recovery-copy.ts';
import { passkeyRoutes } from './passkeys.ts';
import { passwordRoutes } from './passwords.ts';
import { profileRoutes } from './profile.ts';
import { ssoRoutes } from './sso.ts';
import { twoFactorRoutes } from './two-factor.ts';
import { webhookRoutes } from './webhook.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  await app.register(loginRoutes);
  await app.register(profileRoutes);
  await app.register(twoFactorRoutes);
  await app.register(passwordRoutes);
  await app.register(passkeyRoutes);
  await app.register(keyRoutes);
  await app.register(webhookRoutes);
  await app.register(ssoRoutes);
  await app.register(deviceRoutes);
  await app.register(orgRecoveryCopyRoutes);
}
