// A real OpenID Connect provider (panva's oidc-provider) on 127.0.0.1, for the single sign-on tests
// (Vitest and Playwright) and for trying sign-in by hand (scripts/oidc-test-provider.ts).
//
// Why our own pages instead of oidc-provider's devInteractions: the dev pages accept any name (the
// account is only looked up later, so a removed account fails obscurely at the token endpoint),
// they load a Google font (no network here), and a browser test needs stable labels. Ours: one form,
// a field labelled "Username" and a button "Sign in" (no password: this provider proves nothing
// about credentials). Consent is implied for the one registered client (loadExistingGrant below),
// so there is no consent step. Logout keeps oidc-provider's confirmation form (xsrf + logout=yes).
//
// Accounts live in a Map the test changes while the provider runs; claims are read at each token
// request, so a changed group list shows in the next ID token. No Vitest imports: Playwright's
// helpers import this too.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** The claims a test account carries; `disabled` keeps it from signing in without removing it. */
export interface TestAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  disabled?: boolean;
}

export interface TestProviderOptions {
  /** The relying party's redirect URIs (loopback only). */
  redirectUris: string[];
  /** Where the provider may send the browser after RP-initiated logout (loopback only). */
  postLogoutRedirectUris?: string[];
  /** 0 (the default) picks a free port. The issuer is always http://127.0.0.1:<port>. */
  port?: number;
  /** Shown as the heading of the provider's pages and as the client's name. */
  name?: string;
  /** Lifetime of an authorization code; a test makes one expire with a small value. Default 60. */
  codeTtlSeconds?: number;
  /** Fixed client credentials (the CLI uses them so a restart keeps the server's settings valid). */
  clientId?: string;
  clientSecret?: string;
  users?: Record<string, TestAccount>;
}

export interface TestProvider {
  /** http://127.0.0.1:<port>, without a trailing slash (what discovery returns as `issuer`). */
  readonly issuer: string;
  readonly port: number;
  readonly client: { readonly clientId: string; readonly clientSecret: string };
  setUser(login: string, account: TestAccount): void;
  removeUser(login: string): void;
  /** How many RP-initiated logout requests reached the end-session endpoint (before confirmation). */
  endSessionSeen(): number;
  close(): Promise<void>;
}

const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name'],
  groups: ['groups'],
};
const ALL_SCOPES = Object.keys(SCOPE_CLAIMS).join(' ');
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function assertLoopback(uris: string[]): void {
  for (const uri of uris) {
    if (!LOOPBACK_HOSTS.has(new URL(uri).hostname)) throw new Error(`The test provider only serves loopback relying parties, not ${uri}`);
  }
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const postLogoutRedirectUris = options.postLogoutRedirectUris ?? [];
  assertLoopback([...options.redirectUris, ...postLogoutRedirectUris]);
  const title = options.name ?? 'Test identity provider';
  const users = new Map(Object.entries(options.users ?? {}));
  const client = {
    clientId: options.clientId ?? 'sealdrop-test',
    clientSecret: options.clientSecret ?? randomBytes(24).toString('base64url'),
  };
  let endSessions = 0;

  // The issuer must be known before the provider exists, so listen first and attach it after.
  let handler: RequestListener | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const activeAccount = (login: string) => {
    const account = users.get(login);
    return account && !account.disabled ? account : undefined;
  };

  // A removed account's provider session still names it; without this check oidc-provider would
  // skip the login prompt for it. With it, that browser is asked to sign in again (and refused).
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check('account_unavailable', 'the signed-in account was removed or disabled', (ctx) =>
      Boolean(ctx.oidc.session?.accountId && !ctx.oidc.account),
    ),
  );

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: title,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-provider', alg: 'RS256', use: 'sig' }] },
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      // Browsers share cookies between ports of one host: the relying party on 127.0.0.1 sees these,
      // so they carry a prefix that no Sealdrop cookie uses.
      names: { session: 'test_op_session', interaction: 'test_op_interaction', resume: 'test_op_resume' },
    },
    claims: SCOPE_CLAIMS,
    scopes: Object.keys(SCOPE_CLAIMS),
    // Otherwise oidc-provider keeps scope claims out of the ID token when an access token is issued;
    // the relying party reads email and groups from the ID token.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy },
    ttl: { AuthorizationCode: options.codeTtlSeconds ?? 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    async findAccount(_ctx, sub) {
      if (!activeAccount(sub)) return undefined;
      return {
        accountId: sub,
        // Read at each token request, not at sign-in: a group change shows in the next ID token.
        claims: () => {
          const account = activeAccount(sub);
          return { sub, email: account?.email, email_verified: account?.email_verified ?? true, name: account?.name ?? sub, groups: account?.groups ?? [] };
        },
      };
    },
    // The one client is first-party: consent is implied, so there is no consent page.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope(ALL_SCOPES);
      await grant.save();
      return grant;
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(title, `<p id="error-code">${escapeHtml(out.error)}</p><p>${escapeHtml(out.error_description ?? '')}</p>`);
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.use(async (koaCtx, next) => {
    const ctx = koaCtx as KoaContextWithOIDC;
    if (/^\/interaction\/[\w-]+$/.test(ctx.path) && (ctx.method === 'GET' || ctx.method === 'POST')) {
      return loginInteraction(provider, ctx, title, activeAccount);
    }
    await next();
    // ctx.oidc exists once oidc-provider has routed the request (after next()).
    if (ctx.oidc?.route === 'end_session') endSessions += 1;
  });
  handler = provider.callback();

  return {
    issuer,
    port,
    client,
    setUser: (login, account) => void users.set(login, { ...account, groups: account.groups && [...account.groups] }),
    removeUser: (login) => void users.delete(login),
    endSessionSeen: () => endSessions,
    async close() {
      const closed = once(server, 'close');
      server.close();
      // fetch keeps sockets alive; without this close() waits for them to time out.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** GET shows the form; POST signs the named account in or shows the form again with 401. */
async function loginInteraction(
  provider: Provider,
  ctx: KoaContextWithOIDC,
  title: string,
  activeAccount: (login: string) => TestAccount | undefined,
): Promise<void> {
  const showForm = (status: number, error?: string) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    const alert = error ? `<p role="alert" id="login-error">${escapeHtml(error)}</p>` : '';
    ctx.body = page(
      title,
      `${alert}<form method="post" action="${escapeHtml(ctx.path)}">
        <label for="username">Username</label> <input id="username" name="username" autocomplete="username" required autofocus>
        <button type="submit">Sign in</button>
      </form>`,
    );
  };
  try {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.prompt.name !== 'login') {
      // Cannot happen while loadExistingGrant grants every scope; say so rather than hang.
      ctx.status = 501;
      ctx.body = `prompt ${details.prompt.name} is not implemented by the test provider`;
      return;
    }
    if (ctx.method === 'GET') return showForm(200);
    const login = (await readForm(ctx.req)).get('username') ?? '';
    if (!activeAccount(login)) return showForm(401, 'Unknown or disabled account');
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    ctx.redirect(returnTo);
    ctx.status = 303;
  } catch (error) {
    // An expired or unknown interaction (oidc-provider's SessionNotFound and the like).
    const code = (error as { error?: string }).error ?? 'server_error';
    ctx.status = (error as { status?: number }).status ?? 500;
    ctx.type = 'html';
    ctx.body = page(title, `<p id="error-code">${escapeHtml(code)}</p>`);
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 8192) throw Object.assign(new Error('form too large'), { status: 413, error: 'invalid_request' });
  }
  return new URLSearchParams(body);
}

// oidc-provider passes its form (id "op.logoutForm", the xsrf field); the buttons submit it.
function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  ctx.type = 'html';
  ctx.body = page(
    'Sign out',
    `${form}<p>Sign out of the test identity provider?</p>
    <button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
    <button type="submit" form="op.logoutForm">Stay signed in</button>`,
  );
}

function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  ctx.type = 'html';
  ctx.body = page('Signed out', '<p id="signed-out">You are signed out.</p>');
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
