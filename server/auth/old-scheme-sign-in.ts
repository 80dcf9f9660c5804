// Whether this server still takes the password itself from an account made before zero-knowledge
// sign-in (docs/security.md "Accounts made before"). Closed when the operator says so
// (OLD_SCHEME_SIGN_IN=off) or once no such account is left, which is recorded and lasts
// (repositories/old-scheme-sign-in.ts); a new install starts closed.
import type { FastifyInstance } from 'fastify';

export async function oldSchemeSignInOpen(app: FastifyInstance): Promise<boolean> {
  if (app.config.oldSchemeSignIn === 'off') return false;
  return !(await app.repos.oldSchemeSignIn.closeWhenNoneLeft(app.now()));
}
