// The scale-out rig shared by `npm run test:scale` (scale.scenario.ts) and `npm run bench:scale`
// (bench/scale.ts): on 127.0.0.1, a Swift+s3api S3 server, two server processes with
// BLOB_STORE=s3 on the local PostgreSQL (a schema of their own, dropped at stop) and nginx
// balancing between them round-robin with the configuration docs/operations.md gives (plus the
// test-only X-Upstream header). Everything it starts is stopped by its own process handle, never
// by name.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startLocalS3, type LocalS3 } from '../../scripts/s3-server/s3-server.ts';
import { portFree, startNginx, type RunningNginx } from '../../scripts/scale/nginx.ts';
import { ServerProcess } from './server-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface RigOptions {
  /** Swift's proxy port; Swift also takes the four ports after it. */
  s3Port: number;
  nginxPort: number;
  ports: { a: number; b: number };
  bucket: string;
  /** Extra server environment (over the rig's defaults). */
  env?: Record<string, string>;
  databaseUrl?: string;
  /** Who is asking, for the "port is busy" message. */
  label?: string;
  /** Extra node options for both server processes (bench:admin-reads --cpu-prof). */
  nodeArgs?: string[];
  /**
   * Where the processes keep blobs: the rig's S3 store (default), or one DATA_DIR on this disk that
   * both share (bench:admin-reads --blob-store=disk: the same load without Swift's processes on
   * the same cores). The S3 store is started either way, idle with 'disk'.
   */
  blobStore?: 's3' | 'disk';
  /** Both server processes' nice value (bench:admin-reads --server-nice): their share of a busy machine's CPU. */
  serverNice?: number;
}

export interface Rig {
  s3: LocalS3;
  nginx: RunningNginx;
  a: ServerProcess;
  b: ServerProcess;
  schema: string;
  /** The server environment both processes run with (for the CLI too). */
  env: Record<string, string>;
  /** `server/cli.ts create-user` against the rig's database; throws with the CLI's stderr. */
  createUser(username: string, password: string): void;
  /** Stops whatever was started (by handle), drops the schema and the data dir; safe to call twice. */
  stop(): Promise<void>;
}

export async function ensurePostgres(databaseUrl = DEFAULT_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch {
    // The local cluster, as .ci/run starts it.
    const versions = spawnSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).stdout.trim().split('\n');
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0] ?? '15', 'main', 'start'], { stdio: 'inherit' });
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const { s3Port, nginxPort, ports } = options;
  const busy: number[] = [];
  for (const port of [s3Port, s3Port + 1, s3Port + 2, s3Port + 3, s3Port + 4, nginxPort, ports.a, ports.b]) {
    if (!(await portFree(port))) busy.push(port);
  }
  if (busy.length > 0) {
    throw new Error(`port${busy.length > 1 ? 's' : ''} ${busy.join(', ')} busy: ${options.label ?? 'the scale rig'} needs ${s3Port}-${s3Port + 4}, ${nginxPort}, ${ports.a} and ${ports.b}`);
  }
  await ensurePostgres(databaseUrl);

  const schema = `scale_${randomBytes(4).toString('hex')}`;
  const dataDir = `/tmp/sealdrop-scale-${schema}`;
  let s3: LocalS3 | undefined;
  let nginx: RunningNginx | undefined;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const quietly = (step: Promise<unknown> | undefined) => step?.catch((error: unknown) => console.error(`scale rig: ${(error as Error).message}`));
    await quietly(nginx?.stop());
    await Promise.all([quietly(a?.stop()), quietly(b?.stop())]);
    await quietly(s3?.stop());
    await quietly(dropSchema(databaseUrl, schema));
    spawnSync('rm', ['-rf', dataDir]);
  };

  try {
    s3 = await startLocalS3({ port: s3Port });
    await s3.createBucket(options.bucket);
    const env: Record<string, string> = {
      ...(options.blobStore === 'disk' ? { BLOB_STORE: 'disk' } : s3.env(options.bucket)),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      // Both processes share these keys, as every process of a PostgreSQL deployment must.
      WEBHOOK_SIGNING_KEY: randomBytes(32).toString('base64url'),
      ACTIVITY_CHAIN_KEY: randomBytes(32).toString('base64url'),
      DATA_DIR: dataDir,
      STATIC_DIR: '/nonexistent-app-build',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'info',
      UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
      ...options.env,
    };
    a = new ServerProcess('A', ports.a, env, options.nodeArgs, options.serverNice);
    b = new ServerProcess('B', ports.b, env, options.nodeArgs, options.serverNice);
    await a.start(); // migrates first
    await b.start();
    nginx = await startNginx(nginxPort, [`127.0.0.1:${ports.a}`, `127.0.0.1:${ports.b}`]);
    return {
      s3,
      nginx,
      a,
      b,
      schema,
      env,
      createUser(username, password) {
        const created = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'create-user', username, '--password-stdin'], {
          cwd: REPO_ROOT,
          env: { ...process.env, ...env },
          input: `${password}\n`,
          encoding: 'utf8',
        });
        if (created.status !== 0) throw new Error(`create-user ${username} failed (${created.status}): ${created.stderr}`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
