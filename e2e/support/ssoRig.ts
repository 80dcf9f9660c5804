// What the single-sign-on specs share: a real OpenID provider on loopback
// (tests/support/oidc-provider.ts) and a server of their own configured for it, on ports beside
// E2E_PORT, and the steps every such spec takes in the browser (sign in through the provider's
// page, make the first keys, upload a file through a link, download it decrypted).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startTestProvider, type TestAccount, type TestProvider } from '../../tests/support/oidc-provider.ts';
import type { LanguageCode } from '../../locales/languages.ts';
import { withoutFileSystemAccess } from './fileSystemAccess.ts';
import { ServerProcess } from './server-process.ts';
import { text } from './texts.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT_ID = 'sealdrop-e2e';
/** The browser's language for each of the app's: the app follows it on a first visit. */
const BROWSER_LOCALES: Record<LanguageCode, string> = { en: 'en-US', de: 'de-DE' };

export interface SsoRigOptions {
  /** The server's port; the provider listens on the next one. */
  readonly port: number;
  /** `localhost` where WebAuthn needs a domain as relying party. */
  readonly host?: '127.0.0.1' | 'localhost';
  /** Names the data directory and the upload temp files (`.tmp/<name>-<port>`). */
  readonly name: string;
  readonly users: Record<string, TestAccount>;
  /** More server settings (OIDC_ADMIN_GROUP, say). */
  readonly env?: Record<string, string>;
}

export class SsoRig {
  readonly base: string;
  private server: ServerProcess | undefined;
  private started: TestProvider | undefined;

  constructor(private readonly options: SsoRigOptions) {
    this.base = `http://${options.host ?? '127.0.0.1'}:${options.port}`;
  }

  get provider(): TestProvider {
    if (!this.started) throw new Error('the SSO rig is not started');
    return this.started;
  }

  async start(): Promise<void> {
    const clientSecret = `${this.options.name}-secret`;
    this.started = await startTestProvider({
      port: this.options.port + 1,
      clientId: CLIENT_ID,
      clientSecret,
      redirectUris: [`${this.base}/api/auth/sso/callback`],
      postLogoutRedirectUris: [`${this.base}/login`],
      users: this.options.users,
    });
    this.server = new ServerProcess({
      port: this.options.port,
      dataDir: path.join(ROOT, `.tmp/${this.options.name}-${this.options.port}`),
      env: {
        PUBLIC_URL: this.base,
        OIDC_ISSUER: this.started.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: clientSecret,
        OIDC_NAME: 'Example Staff',
        OIDC_SCOPES: 'openid email profile groups',
        OIDC_ALLOWED_GROUPS: 'staff',
        RATE_LIMIT_PRELOGIN_PER_IP: '1000000',
        ...this.options.env,
      },
    });
    await this.server.start();
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    await this.started?.close();
  }

  /** A browser of its own; downloads as a browser without File System Access makes them (download events). */
  async newContext(browser: Browser, language: LanguageCode = 'en'): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: this.base, locale: BROWSER_LOCALES[language] });
    await withoutFileSystemAccess(context);
    return context;
  }

  async newPage(browser: Browser, language: LanguageCode = 'en'): Promise<Page> {
    return (await this.newContext(browser, language)).newPage();
  }

  /**
   * Signs in as `login` through the sign-in page (in the page's `language`) and the provider's
   * page; lands on /sso with its heading shown (or on `landing`).
   */
  async signInBySso(page: Page, login: string, { landing = `${this.base}/sso`, language = 'en' }: { landing?: string; language?: LanguageCode } = {}): Promise<void> {
    await page.goto('/login');
    await page.getByRole('link', { name: text(language, 'sso.signIn.button', { name: 'Example Staff' }) }).click();
    await expect(page).toHaveURL(new RegExp(`^${this.provider.issuer}/interaction/`));
    await page.getByLabel('Username').fill(login);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(landing);
    if (landing === `${this.base}/sso`) await expect(page.getByRole('heading', { name: text(language, 'sso.page.title') })).toBeVisible();
  }

  /** The first sign-in's key pair, the recovery key acknowledged (and not kept). */
  async createKeys(page: Page, language: LanguageCode = 'en'): Promise<void> {
    await page.getByRole('button', { name: text(language, 'sso.setup.button') }).click();
    await expect(page.getByTestId('recovery-key')).toBeVisible();
    await page.getByLabel(text(language, 'sso.setup.recoveryStored')).check();
    await page.getByRole('button', { name: text(language, 'sso.setup.continue') }).click();
    await expect(page).toHaveURL(`${this.base}/dashboard`);
  }

  /** A folder of the signed-in account, by the API as the page's session. */
  async createFolder(page: Page, title: string): Promise<{ id: number; link_token: string }> {
    const token = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const answer = await page.request.post('/api/folders/', { data: { title, perform_mime_check: false }, headers: { 'x-csrftoken': token } });
    expect(answer.status()).toBe(201);
    return (await answer.json()) as { id: number; link_token: string };
  }

  /** A file encrypted in an uploader's browser for the folder owner's key, sent through the folder's upload page. */
  async uploadThroughLink(browser: Browser, linkToken: string, name: string, content: Buffer): Promise<void> {
    const context = await this.newContext(browser);
    const uploader = await context.newPage();
    const dir = fs.mkdtempSync(path.join(ROOT, `.tmp/${this.options.name}-upload-`));
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    await uploader.goto(`/upload/${linkToken}`);
    await uploader.getByTestId('file-input').setInputFiles(file);
    await uploader.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(uploader.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Opens the folder (a fresh page load: the key is locked again, and the first Download goes to
   * /sso, which unlocks with this browser's copy and comes back), then downloads `name`.
   */
  async downloadedBytes(page: Page, folderId: number, name: string): Promise<Buffer> {
    await page.goto(`/folders/view/${folderId}`);
    await page.getByRole('button', { name: `Download ${name}` }).click();
    await page.waitForURL(`${this.base}/sso?next=${encodeURIComponent(`/folders/view/${folderId}`)}`);
    await page.waitForURL(`${this.base}/folders/view/${folderId}`, { timeout: 20_000 });
    const started = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: `Download ${name}` }).click();
    return fs.readFileSync(await (await started).path());
  }
}
