// node --import tsx scripts/oidc-test-provider.ts [--port 9440]
//   --redirect http://127.0.0.1:8080/api/auth/sso/callback [--post-logout <uri> ...]
//   --user alice:alice@example.test:staff,admins [--user ...] [--client-secret <secret>]
// Runs the test OpenID Connect provider (tests/support/oidc-provider.ts) in the foreground until
// Ctrl-C / SIGTERM, so single sign-on can be tried by hand against `npm start`, and prints the
// variables that point the server at it. Sign in on its page with one of the --user names.
import { parseArgs } from 'node:util';
import { startTestProvider, type TestAccount } from '../tests/support/oidc-provider.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9440' },
    redirect: { type: 'string', multiple: true, default: [] },
    'post-logout': { type: 'string', multiple: true },
    user: { type: 'string', multiple: true, default: [] },
    'client-id': { type: 'string', default: 'sealdrop-dev' },
    // A fixed secret survives a restart of the provider without restarting the server.
    'client-secret': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(2);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 1024 || port > 65535) fail('--port must be a port number from 1024 to 65535');
if (values.redirect.length === 0) fail('give the relying party\'s callback with --redirect (e.g. http://127.0.0.1:8080/api/auth/sso/callback)');

/** login:email[:group,group]; the login is also the subject and the display name. */
function parseUser(spec: string): [string, TestAccount] {
  const [login, email, groups] = spec.split(':');
  if (!login || !email) fail(`--user ${spec}: expected login:email[:group,group]`);
  return [login, { email, email_verified: true, name: login, groups: groups ? groups.split(',').filter(Boolean) : [] }];
}

try {
  const users = Object.fromEntries(values.user.map(parseUser));
  const provider = await startTestProvider({
    port,
    redirectUris: values.redirect,
    // By default the server's own origin, where a signed-out browser would land.
    postLogoutRedirectUris: values['post-logout'] ?? values.redirect.map((uri) => `${new URL(uri).origin}/`),
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    users,
  });
  const stop = () => {
    provider.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`Test OpenID Connect provider at ${provider.issuer}; accounts: ${Object.keys(users).join(', ') || 'none'}`);
  console.log(`  OIDC_ISSUER=${provider.issuer}`);
  console.log(`  OIDC_CLIENT_ID=${provider.client.clientId}`);
  console.log(`  OIDC_CLIENT_SECRET=${provider.client.clientSecret}`);
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
