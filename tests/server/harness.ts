// Starts the real server for a test file: the real Fastify app on a random port over real HTTP,
// with a fresh temporary DATA_DIR and SQLite database, or, when DATABASE_URL is set, a fresh
// PostgreSQL schema that is dropped at close (with the shared keys PostgreSQL needs, made per
// server). Time comes from a manual clock the test can move.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { createUser } from '../../server/auth/user-admin.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { LogDestination } from '../../server/logging.ts';
import type { User } from '../../server/db/repositories/index.ts';
import { TestClient } from './http-client.ts';
import type { HostResolver } from '../../server/webhooks/transport.ts';
import { buildOpenApiDocument } from '../../server/openapi/document.ts';
import { OpenApiAnswerChecker } from './openapi-answers.ts';

export const usingPostgres = Boolean(process.env.DATABASE_URL);

/**
 * The cheapest argon2id cost the format allows, for accounts tests make in bulk: the derivation
 * is the same at any cost. Accounts made by the CLI and the app get the default cost.
 */
export const TEST_KDF_COST = { memoryKiB: 19_456, passes: 2, lanes: 1 } as const;

export class ManualClock {
  constructor(public current = Date.now()) {}
  now = (): number => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestServer {
  baseUrl: string;
  app: FastifyInstance;
  config: Config;
  clock: ManualClock;
  /** The environment the server was configured from (for spawning the CLI against the same data). */
  env: Record<string, string>;
  /** A client of the server; `localhost`: through that name instead of 127.0.0.1 (WebAuthn takes no IP address as RP ID). */
  client(host?: '127.0.0.1' | 'localhost'): TestClient;
  /** A user on the current scheme, its KDF parameters at the cheapest cost (tests only; see TEST_KDF_COST). */
  createUser(username: string, password: string, email?: string | null): Promise<User>;
  /**
   * Resolves once the server has finished everything the requests so far set off: every response
   * closed (sent or aborted) and every background task it started (app.background) settled. Tests
   * that assert something did NOT happen wait for this instead of sleeping.
   */
  settled(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment variables (e.g. RATE_LIMIT_ACCOUNT_FAILURES, STATIC_DIR). */
  env?: Record<string, string>;
  /** Runs before the server listens (e.g. to add a route that fails). */
  setup?: (app: FastifyInstance) => void | Promise<void>;
  /** Receives every log line the server writes (set LOG_LEVEL in env to see any). */
  logStream?: LogDestination;
  /**
   * PostgreSQL: use this other test server's schema instead of a fresh one (a server started again
   * on the same data); that server drops it when it closes, this one does not.
   */
  sameDatabaseAs?: TestServer;
  /**
   * Set PUBLIC_URL to the server's own address (http://127.0.0.1:<port>, the port picked before
   * start), for tests that need PUBLIC_URL (mail, webhooks) and still create links through baseUrl.
   * 'localhost': http://localhost:<port> instead, a host name passkeys accept as relying party.
   */
  ownPublicUrl?: boolean | 'localhost';
  /** How the server resolves webhook receivers' names (default: the system resolver). */
  resolveHost?: HostResolver;
}

/** A port nothing listens on right now (the OS picks it; released before the caller binds it). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-test-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-app-build'),
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  const listenPort = options.ownPublicUrl ? await freeLoopbackPort() : 0;
  if (options.ownPublicUrl) env.PUBLIC_URL = `http://${options.ownPublicUrl === 'localhost' ? 'localhost' : '127.0.0.1'}:${listenPort}`;
  const databaseUrl = process.env.DATABASE_URL;
  const sharedSchema = options.sameDatabaseAs?.env.DATABASE_SCHEMA;
  const schema = databaseUrl ? (sharedSchema ?? `test_${process.pid}_${randomBytes(4).toString('hex')}`) : undefined;
  if (databaseUrl && schema) {
    env.DATABASE_URL = databaseUrl;
    env.DATABASE_SCHEMA = schema;
    // PostgreSQL needs the per-install keys set (server/config.ts); a server on the same data keeps them.
    const same = options.sameDatabaseAs?.env;
    env.WEBHOOK_SIGNING_KEY ??= same?.WEBHOOK_SIGNING_KEY ?? randomBytes(32).toString('base64url');
    env.ACTIVITY_CHAIN_KEY ??= same?.ACTIVITY_CHAIN_KEY ?? randomBytes(32).toString('base64url');
  }
  const config = loadConfig(env);
  const clock = new ManualClock();
  const app = await buildApp(config, { clock: clock.now, logStream: options.logStream, resolveHost: options.resolveHost });
  await options.setup?.(app);
  const openResponses = trackOpenResponses(app);
  await app.listen({ port: listenPort, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  // Every answer a test's client receives is checked against the OpenAPI document (OPENAPI_CHECK=0 turns it off).
  const checker =
    process.env.OPENAPI_CHECK === '0' ? undefined : new OpenApiAnswerChecker(buildOpenApiDocument(app.apiRouteCatalogue.operations(), { version: 'test' }));

  return {
    baseUrl,
    app,
    config,
    clock,
    env,
    client: (host = '127.0.0.1') => new TestClient(baseUrl.replace('127.0.0.1', host), checker && ((exchange) => checker.check(exchange))),
    createUser: (username, password, email = null) =>
      createUser(app.repos, { username, password, email, now: clock.now(), kdfCost: TEST_KDF_COST }),
    async settled(timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      do {
        while (openResponses.count > 0) {
          if (Date.now() > until) throw new Error(`${openResponses.count} responses still open after ${timeoutMs} ms`);
          await openResponses.nextClose();
        }
        await app.background.settled();
      } while (openResponses.count > 0);
    },
    async close() {
      await app.close();
      if (databaseUrl && schema && sharedSchema === undefined) await dropSchema(databaseUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Counts the responses the HTTP server has begun and not yet closed (sent or aborted). */
function trackOpenResponses(app: FastifyInstance): { readonly count: number; nextClose(): Promise<void> } {
  let count = 0;
  let waiting: Array<() => void> = [];
  app.server.on('request', (_request, response) => {
    count += 1;
    response.once('close', () => {
      count -= 1;
      const wake = waiting;
      waiting = [];
      for (const resolve of wake) resolve();
    });
  });
  return {
    get count() {
      return count;
    },
    nextClose: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

/** A client signed in as a new user (without 2FA). */
export async function signedInClient(
  server: TestServer,
  username = 'alice',
  password = 'correct horse',
): Promise<{ client: TestClient; user: User; password: string }> {
  const user = await server.createUser(username, password);
  const client = server.client();
  const response = await client.login(username, password);
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { client, user, password };
}
