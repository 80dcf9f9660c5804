// Debian's Firefox ESR for end-to-end specs. Playwright drives only its own patched Firefox, so
// these specs use puppeteer-core over WebDriver BiDi, which the stock Firefox speaks. Each launch
// gets a fresh profile and a download directory under one temporary directory, removed on close;
// the profile's preferences send every download straight into that directory, with no dialog.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export function firefoxInstalled(): boolean {
  return fs.existsSync(FIREFOX_PATH);
}

/** A running Firefox with its own profile; `close` ends it and deletes profile and downloads. */
export interface FirefoxSession {
  readonly browser: Browser;
  /** Where Firefox saves downloads (files appear under their final name once complete). */
  readonly downloadDir: string;
  close(): Promise<void>;
}

/** A download did not complete in time (code for branching; the message lists what was there). */
export class DownloadTimeoutError extends Error {
  override readonly name = 'DownloadTimeoutError';
  readonly code = 'DOWNLOAD_TIMEOUT';
}

function downloadPrefs(downloadDir: string): Record<string, unknown> {
  return {
    'browser.download.folderList': 2,
    'browser.download.dir': downloadDir,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    // Neither the downloads panel nor a "what should Firefox do" dialog: nobody could click them.
    'browser.download.alwaysOpenPanel': false,
    'browser.download.manager.showWhenStarting': false,
    'browser.helperApps.neverAsk.saveToDisk': 'application/octet-stream,application/zip',
    // Write next to the final name (<name>.part, then renamed) rather than in the system temp dir.
    'browser.download.start_downloads_in_tmp_dir': false,
    // Downloads of unknown files are not held back for a reputation check over the network.
    'browser.safebrowsing.downloads.enabled': false,
  };
}

export async function launchFirefox(): Promise<FirefoxSession> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-firefox-'));
  const profileDir = path.join(base, 'profile');
  const downloadDir = path.join(base, 'downloads');
  fs.mkdirSync(profileDir);
  fs.mkdirSync(downloadDir);
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profileDir,
      extraPrefsFirefox: downloadPrefs(downloadDir),
    });
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
  return {
    browser,
    downloadDir,
    async close() {
      try {
        await browser.close();
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The path of `name` in `dir` once Firefox has finished it: the file has its final name, `size`
 * bytes, and no `.part` file is left beside it.
 */
export async function completedDownload(dir: string, name: string, size: number, timeoutMs = 60_000): Promise<string> {
  const file = path.join(dir, name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = fs.readdirSync(dir);
    const done = entries.includes(name) && !entries.some((entry) => entry.endsWith('.part')) && fs.statSync(file).size === size;
    if (done) return file;
    if (Date.now() > deadline) throw new DownloadTimeoutError(`no complete ${name} (${size} bytes) in ${dir} within ${timeoutMs} ms; found: ${entries.join(', ') || 'nothing'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
