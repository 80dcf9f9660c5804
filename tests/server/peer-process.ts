// A second server process on the same data as a test server (same SQLite file under DATA_DIR, or
// the same PostgreSQL schema): `node server/main.ts` with the test server's environment, as an
// operator runs several processes behind a load balancer. Its clock is the real one.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from './harness.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const READY = /Sealdrop is running at (http:\/\/\S+)/;
const START_TIMEOUT_MS = 30_000;

export interface PeerProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startPeerProcess(server: TestServer, env: Record<string, string> = {}): Promise<PeerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...server.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`peer process did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`peer process exited with ${code}:\n${output}`));
    });
  });
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      await waitForExit(child);
    },
  };
}
