// Spool files left by a killed process are removed at start-up (issue 26): a server process spools
// upload chunks under "<temp>/sealdrop-spool/<pid>" (server/spool-directory.ts); a new process
// removes the directories of processes that no longer run, and keeps those of running ones.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import { startPeerProcess } from './peer-process.ts';

let server: TestServer;
let temp: string;

beforeAll(async () => {
  server = await startServer();
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-spool-test-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(temp, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('spool directories at start-up', () => {
  it("removes a killed process's spool files, keeps a running process's, and spools under its own pid", async () => {
    const root = path.join(temp, 'sealdrop-spool');
    const dead = path.join(root, String(deadPid()));
    const running = path.join(root, String(process.pid));
    const unrelated = path.join(root, 'not-a-pid');
    for (const dir of [dead, running, unrelated]) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'Ab3dE_f9xZ-1'), Buffer.alloc(8 * 1024 * 1024));
    }

    const peer = await startPeerProcess(server, { TMPDIR: temp });
    try {
      expect(fs.existsSync(dead)).toBe(false);
      expect(fs.existsSync(path.join(running, 'Ab3dE_f9xZ-1'))).toBe(true);
      expect(fs.existsSync(unrelated)).toBe(true);
      const own = fs.readdirSync(root).filter((name) => /^\d+$/.test(name) && name !== String(process.pid));
      expect(own).toHaveLength(1);
    } finally {
      await peer.stop();
    }
  });
});
