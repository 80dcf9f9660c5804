// The configured OpenID provider (server/auth/sso/provider.ts) as `app.ssoProvider`, one per
// process so its discovery is cached across requests; null without single sign-on.
import { createSsoProvider, type SsoProvider } from '../auth/sso/provider.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ssoProvider: SsoProvider | null;
  }
}

export const ssoProviderPlugin = globalPlugin('sso-provider', async (app) => {
  app.decorate('ssoProvider', app.config.sso ? createSsoProvider(app.config.sso) : null);
});
