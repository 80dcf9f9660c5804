// Starts and stops the local S3 server (OpenStack Swift with s3api, swift_s3.py beside this file)
// for tests, benchmarks and `npm run s3-server`. Debian packages: python3-swift and memcached.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Client } from '@aws-sdk/client-s3';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../../server/storage/s3-client.ts';

const SCRIPT = fileURLToPath(new URL('./swift_s3.py', import.meta.url));
/** Debian's interpreter: a pyenv python3 earlier on PATH cannot import the swift package. */
const PYTHON = '/usr/bin/python3';
export const DEFAULT_S3_PORT = 9400;
/**
 * Seconds on a quiet machine, minutes on a loaded one (docs/operations.md, "CI on that machine");
 * longer than swift_s3.py's own wait for the store, so that it can say why it gave up.
 */
const SWIFT_START_MS = 180_000;
/** tempauth's test account (swift_s3.py). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'test:tester', secretAccessKey: 'testing' } as const;

export interface LocalS3 {
  endpoint: string;
  /** The server's environment for BLOB_STORE=s3 on `bucket`. */
  env(bucket: string): Record<string, string>;
  createBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
  pid: number;
}

export function localS3Env(endpoint: string, bucket: string): Record<string, string> {
  return {
    BLOB_STORE: 's3',
    S3_BUCKET: bucket,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
  };
}

export function localS3Client(endpoint: string): S3Client {
  return createS3Client({
    kind: 's3',
    bucket: 'unused',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { ...LOCAL_S3_CREDENTIALS },
  });
}

export async function createBucket(endpoint: string, bucket: string): Promise<void> {
  const client = localS3Client(endpoint);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const name = (error as Error).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  } finally {
    client.destroy();
  }
}

export function swiftInstalled(): boolean {
  return existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/swift') && existsSync('/usr/bin/memcached');
}

/**
 * Starts Swift on 127.0.0.1:`port` (and the four ports after it) with its state in `stateDir`
 * (a new temporary directory, removed at stop, when not given). Refuses busy ports.
 */
export async function startLocalS3(options: { port?: number; stateDir?: string; log?: (line: string) => void } = {}): Promise<LocalS3> {
  if (!swiftInstalled()) {
    throw new Error('OpenStack Swift is not installed: apt-get install -y --no-install-recommends python3-swift memcached');
  }
  const port = options.port ?? DEFAULT_S3_PORT;
  const ownDir = options.stateDir === undefined;
  const stateDir = options.stateDir ?? (await mkdtemp(path.join(tmpdir(), 'sealdrop-s3-')));
  const child: ChildProcess = spawn(PYTHON, [SCRIPT, stateDir, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Swift did not start within ${SWIFT_START_MS / 1000} s:\n${output}`)), SWIFT_START_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      options.log?.(chunk.toString());
      if (/^ready \d+$/m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Swift exited with ${code} while starting:\n${output.slice(-2000)}`));
    });
  });
  try {
    await started;
  } catch (error) {
    // A start given up on is stopped, servers and all: left running, they held the ports until the
    // next run found them busy.
    await stopScript(child);
    if (ownDir) await rm(stateDir, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    pid: child.pid!,
    env: (bucket) => localS3Env(endpoint, bucket),
    createBucket: (bucket) => createBucket(endpoint, bucket),
    async stop() {
      await stopScript(child);
      if (ownDir) await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** The script stops its servers on SIGTERM (swift_s3.py). */
async function stopScript(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
