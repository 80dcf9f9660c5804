// nginx (Debian's package) in front of several server processes, as docs/operations.md
// "Deployment: several processes, S3 and nginx" describes. `sealdropServerBlock` is the
// configuration an operator puts in nginx's http block; `startNginx` runs it for tests with
// everything nginx writes (pid, logs, temporary files) in a temporary directory, as any user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NGINX = '/usr/sbin/nginx';

export interface ProxyOptions {
  /** Address nginx listens on, e.g. "127.0.0.1:9420" (production: "443 ssl" with certificates). */
  listen: string;
  /** The server processes, "host:port" each. */
  upstreams: string[];
  /** Adds X-Upstream (which process answered) to responses: for tests, not for production. */
  revealUpstream?: boolean;
}

/** The upstream and server blocks (inside `http { }`). */
export function sealdropServerBlock({ listen, upstreams, revealUpstream = false }: ProxyOptions): string {
  return `upstream sealdrop {
    # Round-robin (the default): no sticky sessions are needed, every process serves every request.
${upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
}

server {
    listen ${listen};

    # Uploads: the app enforces its own limits (5 GiB per file, 1 MiB for JSON bodies), so nginx
    # sets none, and streams request bodies to the app as they arrive instead of spooling whole
    # uploads to its own disk first (twice the disk I/O, and a cut-off PATCH would lose every byte).
    client_max_body_size 0;
    proxy_request_buffering off;
    # Downloads: stream to the client as the app sends (ranged, possibly many GiB).
    proxy_buffering off;
    # A PATCH of a resumable upload or a multipart request can take minutes on a slow link; these
    # are the longest pauses allowed between two reads or writes, not the total time.
    client_body_timeout 300s;
    proxy_send_timeout 300s;
    proxy_read_timeout 300s;
    send_timeout 300s;

    location / {
        proxy_pass http://sealdrop;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        # With TRUST_PROXY=1 the app takes the client's address (rate limits) from here.
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        # A process that is down or restarting: try the next one (nginx never retries a PATCH or
        # POST once it was sent, so no upload byte goes twice).
        proxy_next_upstream error timeout;${revealUpstream ? '\n        add_header X-Upstream $upstream_addr always;' : ''}
    }
}
`;
}

export interface RunningNginx {
  url: string;
  configFile: string;
  stop(): Promise<void>;
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

export async function startNginx(port: number, upstreams: string[]): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error('nginx is not installed: apt-get install -y --no-install-recommends nginx-light');
  if (!(await portFree(port))) throw new Error(`port ${port} is already in use`);
  const prefix = await mkdtemp(path.join(tmpdir(), 'sealdrop-nginx-'));
  await mkdir(path.join(prefix, 'logs'));
  const root = process.geteuid?.() === 0;
  const configFile = path.join(prefix, 'nginx.conf');
  await writeFile(
    configFile,
    `# Test-only top level: foreground, files under ${prefix}.
${root ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log ${prefix}/logs/access.log;
    client_body_temp_path ${prefix}/client_body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;

${sealdropServerBlock({ listen: `127.0.0.1:${port}`, upstreams, revealUpstream: true })
  .split('\n')
  .map((line) => (line ? `    ${line}` : line))
  .join('\n')}
}
`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', prefix, '-c', configFile], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused its configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 100 && (await portFree(port)); i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${await readFile(path.join(prefix, 'logs/error.log'), 'utf8').catch(() => '')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    configFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // QUIT: graceful stop of master and workers.
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
