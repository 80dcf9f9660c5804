// Chromium for the upload and crypto benchmarks, started by us (not by Playwright) with a
// DevTools port.
// Playwright connects over CDP only to open a page, pick files and press a button, and then
// disconnects, so that nothing of the automation (its network tracking copies every request body
// to node) runs while the upload is measured. Launched without --disable-dev-shm-usage.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/environment.mjs';

export class BenchBrowser {
  private constructor(
    private readonly child: ChildProcess,
    readonly endpoint: string,
    private readonly profile: string,
  ) {}

  static async launch(): Promise<BenchBrowser> {
    const profile = mkdtempSync(join(tmpdir(), 'sealdrop-bench-'));
    const child = spawn(
      CHROMIUM_PATH,
      [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-default-browser-check', 'about:blank'],
      // Its own process group, so that closing ends every helper process it started too.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const endpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match) {
          child.stderr?.off('data', onData);
          child.stderr?.resume();
          resolve(match[1]!);
        }
      };
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen.slice(-2000)}`)));
    });
    return new BenchBrowser(child, endpoint, profile);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Connects, runs `drive` on the page at `url` (one tab, reused between phases), and disconnects. */
  async drive<T>(url: string | null, drive: (page: Page) => Promise<T>): Promise<T> {
    // isLocal: the browser runs on this machine, so picked files go by path (DOM.setFileInputFiles)
    // instead of being copied through the connection, which refuses anything over 50 MB.
    const browser: Browser = await chromium.connectOverCDP(this.endpoint, { isLocal: true });
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      if (url !== null) await page.goto(url);
      return await drive(page);
    } finally {
      // For a browser connected over CDP this only drops the connection; the tab keeps running.
      await browser.close();
    }
  }

  /**
   * Waits until the tab's title starts with `prefix` and returns the rest, reading titles from the
   * DevTools HTTP endpoint (/json/list): no session attaches to the tab, so nothing of the
   * automation runs while it works.
   */
  async waitForTitle(prefix: string, timeoutMs: number): Promise<string> {
    const list = new URL('/json/list', this.endpoint.replace(/^ws:/, 'http:'));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const targets = (await (await fetch(list)).json()) as Array<{ type: string; title: string }>;
      const title = targets.find((t) => t.type === 'page' && t.title.startsWith(prefix))?.title;
      if (title !== undefined) return title.slice(prefix.length);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the tab did not report "${prefix}…" within ${Math.round(timeoutMs / 1000)} s`);
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      process.kill(-this.child.pid!, 'SIGTERM');
      await exited;
    }
    // Helper processes of the group may still be finishing; give them a moment, then clean up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
