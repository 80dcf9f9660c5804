// Signs in at the test provider (tests/support/oidc-provider.ts) the way a browser would, without
// one: Node's fetch with redirect 'manual' and a cookie jar, stopping at the first redirect that
// leaves the provider (to the relying party's redirect URI), which the caller follows or inspects.
// Requests go to loopback addresses only.

export type ProviderSignInErrorCode =
  /** The provider showed its login form again: unknown, removed or disabled account. */
  | 'LOGIN_REFUSED'
  /** The provider showed an error page (its OAuth error code is in `providerError`). */
  | 'PROVIDER_ERROR'
  /** Neither a redirect, the login form nor the logout form: the provider's pages changed. */
  | 'UNEXPECTED_RESPONSE'
  /** The URL is not on 127.0.0.1, localhost or [::1]. */
  | 'NOT_LOOPBACK';

export class ProviderSignInError extends Error {
  override readonly name = 'ProviderSignInError';
  constructor(
    readonly code: ProviderSignInErrorCode,
    readonly status?: number,
    readonly providerError?: string,
  ) {
    super(`${code}${status === undefined ? '' : ` (HTTP ${status})`}${providerError ? `: ${providerError}` : ''}`);
  }
}

interface StoredCookie {
  value: string;
  path: string;
  expiresAt: number;
}

/**
 * The cookies of one browser on loopback. Like a browser it ignores the port (cookies do), so one
 * jar can hold the relying party's cookies and the provider's; it honours Path and expiry.
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie & { name: string }>();

  storeFrom(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals < 1) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      let path = url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';
      let expiresAt = Number.POSITIVE_INFINITY;
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=').map((part) => part.trim());
        if (/^path$/i.test(key) && attributeValue.startsWith('/')) path = attributeValue;
        else if (/^max-age$/i.test(key)) expiresAt = Date.now() + Number(attributeValue) * 1000;
        else if (/^expires$/i.test(key) && expiresAt === Number.POSITIVE_INFINITY) expiresAt = Date.parse(attributeValue);
      }
      const key = `${name}\n${path}`;
      if (expiresAt <= Date.now()) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path, expiresAt });
    }
  }

  /** The Cookie header a browser would send to this URL, or undefined when none applies. */
  headerFor(url: URL): string | undefined {
    const now = Date.now();
    const matching = [...this.#cookies.values()].filter(
      (cookie) =>
        cookie.expiresAt > now &&
        (url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`)),
    );
    return matching.length ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') : undefined;
  }
}

export interface ProviderBrowsingOptions {
  /** Pass one jar to several calls to keep the provider session, like one browser. */
  cookieJar?: CookieJar;
}

/**
 * Follows the provider from an authorization URL (built by the relying party) through its login
 * form, as `login`, and returns the URL the provider redirects back to (the redirect URI with `code`
 * and `state`, or with `error` such as login_required), without requesting it. When the jar holds
 * a live provider session for an available account, no form is shown.
 */
export async function signInAtProvider(authorizationUrl: string | URL, login: string, options: ProviderBrowsingOptions = {}): Promise<URL> {
  const browser = new ProviderBrowser(new URL(authorizationUrl), options.cookieJar ?? new CookieJar());
  let page = await browser.followFrom(new URL(authorizationUrl));
  if (page instanceof URL) return page;
  const form = formOf(page.html, 'username');
  if (!form) throw page.unexpected();
  page = await browser.submit(new URL(form.action, page.url), { username: login });
  if (page instanceof URL) return page;
  if (page.status === 401 && formOf(page.html, 'username')) throw new ProviderSignInError('LOGIN_REFUSED', 401);
  throw page.unexpected();
}

/**
 * Opens an end-session URL (built by the relying party), confirms the provider's "Sign out" form and
 * returns where the provider sends the browser: the post-logout redirect URI (with `state`) when
 * one was given, otherwise the provider's own "signed out" page.
 */
export async function confirmSignOutAtProvider(endSessionUrl: string | URL, options: ProviderBrowsingOptions = {}): Promise<URL> {
  const browser = new ProviderBrowser(new URL(endSessionUrl), options.cookieJar ?? new CookieJar());
  let page = await browser.followFrom(new URL(endSessionUrl));
  if (page instanceof URL) return page;
  const form = formOf(page.html, 'xsrf');
  if (!form) throw page.unexpected();
  page = await browser.submit(new URL(form.action, page.url), { ...form.hidden, logout: 'yes' });
  if (page instanceof URL) return page;
  if (page.status === 200 && page.html.includes('id="signed-out"')) return page.url;
  throw page.unexpected();
}

class ProviderPage {
  constructor(
    readonly url: URL,
    readonly status: number,
    readonly html: string,
  ) {}

  unexpected(): ProviderSignInError {
    const providerError = /id="error-code">([^<]*)</.exec(this.html)?.[1];
    return providerError
      ? new ProviderSignInError('PROVIDER_ERROR', this.status, providerError)
      : new ProviderSignInError('UNEXPECTED_RESPONSE', this.status);
  }
}

const MAX_REDIRECTS = 10;

class ProviderBrowser {
  readonly #origin: string;

  constructor(
    start: URL,
    readonly jar: CookieJar,
  ) {
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(start.hostname)) throw new ProviderSignInError('NOT_LOOPBACK');
    this.#origin = start.origin;
  }

  /** GET, then follow redirects within the provider: a URL outside it is returned unrequested. */
  async followFrom(url: URL): Promise<ProviderPage | URL> {
    return this.#follow(await this.#request(url), url);
  }

  async submit(url: URL, fields: Record<string, string>): Promise<ProviderPage | URL> {
    return this.#follow(await this.#request(url, new URLSearchParams(fields)), url);
  }

  async #follow(first: Response, firstUrl: URL): Promise<ProviderPage | URL> {
    let response = first;
    let url = firstUrl;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return new ProviderPage(url, response.status, await response.text());
      }
      await response.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== this.#origin) return url;
      response = await this.#request(url);
    }
    throw new ProviderSignInError('UNEXPECTED_RESPONSE', response.status);
  }

  async #request(url: URL, form?: URLSearchParams): Promise<Response> {
    const headers = new Headers();
    const cookie = this.jar.headerFor(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { method: form ? 'POST' : 'GET', body: form, headers, redirect: 'manual' });
    this.jar.storeFrom(url, response);
    return response;
  }
}

/** The form that contains an input named `field`: its action and hidden fields. */
function formOf(html: string, field: string): { action: string; hidden: Record<string, string> } | undefined {
  for (const [form = ''] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    if (!new RegExp(`<input\\b[^>]*\\bname="${field}"`).test(form)) continue;
    const action = decodeEntities(/\baction="([^"]*)"/.exec(form)?.[1] ?? '');
    const hidden: Record<string, string> = {};
    for (const [input = ''] of form.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) {
      const name = /\bname="([^"]*)"/.exec(input)?.[1];
      if (name) hidden[name] = decodeEntities(/\bvalue="([^"]*)"/.exec(input)?.[1] ?? '');
    }
    return { action, hidden };
  }
  return undefined;
}

function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|amp|quot|lt|gt);/g, (entity, code: string | undefined) =>
    code ? String.fromCharCode(Number(code)) : ({ '&amp;': '&', '&quot;': '"', '&lt;': '<', '&gt;': '>' })[entity] ?? entity,
  );
}
