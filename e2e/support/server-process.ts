// A Sealdrop server of its own for a spec or a benchmark: its own port and data directory, started
// as a separate process (node + tsx, serving the built app from dist/), so a test can kill it in
// the middle of an upload and start it again on the same data. The suite's shared server
// (playwright.config.ts webServer) builds dist/ before any spec runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcessOptions {
  port: number;
  dataDir: string;
  /** Extra environment (e.g. UPLOAD_SWEEP_INTERVAL_MINUTES). */
  env?: Record<string, string>;
  /** Start from an empty data directory (default true). */
  fresh?: boolean;
}

export class ServerProcess {
  private child: ChildProcess | null = null;
  private stderr = '';

  constructor(private readonly options: ServerProcessOptions) {
    if (options.fresh !== false) rmSync(options.dataDir, { recursive: true, force: true });
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('server already running');
    if (await this.answers()) throw new Error(`port ${this.options.port} is already in use (a server left over from an earlier run?)`);
    this.stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        PORT: String(this.options.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.options.dataDir,
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`server exited (${code}) during start: ${this.stderr}`))),
    );
    await Promise.race([this.waitUntilAnswering(), exited]);
  }

  /** Kills the process at once (SIGKILL): what a crash or a pulled plug does to an upload. */
  async kill(): Promise<void> {
    await this.stopWith('SIGKILL');
  }

  /** A clean shutdown (SIGTERM). */
  async stop(): Promise<void> {
    await this.stopWith('SIGTERM');
  }

  private async stopWith(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  private async answers(): Promise<boolean> {
    try {
      return (await fetch(`${this.url}/api/auth/users/me`)).status === 401;
    } catch {
      return false;
    }
  }

  private async waitUntilAnswering(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (await this.answers()) return;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`server on ${this.url} did not answer within 60 s: ${this.stderr}`);
  }
}
