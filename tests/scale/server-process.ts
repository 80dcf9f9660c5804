// One server process (`node server/main.ts`) on a fixed port, as an operator runs it behind a
// proxy: it can be killed (SIGKILL, as a crash) and started again on the same port, and its JSON
// log lines are kept for the test to read.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const READY = /Sealdrop is running at http:\/\/\S+/;

export class ServerProcess {
  private child: ChildProcess | null = null;
  /** Every line the process wrote, across restarts. */
  readonly lines: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    /** Extra node options (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
    private readonly nodeArgs: readonly string[] = [],
    /** The process's nice value, when not the default (bench:admin-reads --server-nice; negative needs root). */
    private readonly nice?: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const from = this.lines.length;
    const node = [process.execPath, ...this.nodeArgs, '--import', 'tsx', 'server/main.ts'];
    // nice(1) execs node in its own place, so the pid (and a SIGKILL) is still the server's.
    const [command, ...args] = this.nice === undefined ? node : ['nice', '-n', String(this.nice), ...node];
    const child = spawn(command!, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      this.lines.push(...parts);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start:\n${this.lines.slice(-20).join('\n')}`)), 60_000);
      const check = setInterval(() => {
        if (this.lines.slice(from).some((line) => READY.test(line))) {
          clearTimeout(timer);
          clearInterval(check);
          resolve();
        }
      }, 50);
      child.once('exit', (code) => {
        clearTimeout(timer);
        clearInterval(check);
        reject(new Error(`${this.name} exited with ${code}:\n${this.lines.slice(-20).join('\n')}`));
      });
    });
    // Later exits are expected (kill) or seen by the test through failed requests.
    child.removeAllListeners('exit');
  }

  /** Sends a signal; with SIGKILL (a crash) or SIGTERM, waits until the process is gone. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = signal === 'SIGKILL' || signal === 'SIGTERM' ? new Promise((resolve) => child.once('exit', resolve)) : null;
    child.kill(signal);
    await gone;
  }

  async restart(): Promise<void> {
    this.lines.push(`--- ${this.name} restarted ---`);
    await this.start();
  }

  /** The JSON log lines (pino), parsed. */
  logRecords(): Array<Record<string, unknown>> {
    return this.lines.flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }
}
