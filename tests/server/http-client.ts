// A small HTTP client for the server tests: real fetch over a real socket, a cookie jar, and the
// CSRF header copied from the csrftoken cookie on mutating requests (as the browser app does).
// Passwords are turned into authentication secrets as the browser does: pre-login for the
// account's parameters, then the node implementation of the derivation (server/crypto).
import { deriveAccountSecrets, newBoundArgon2Block, unwrapPrivateKey, wrapPrivateKeyScheme2 } from '../../server/crypto/index.ts';
export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: string[];
}

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** false: send no x-csrftoken header; a string: send that value instead of the cookie's. */
  csrf?: false | string;
  headers?: Record<string, string>;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One request and its answer, as an observer of the client sees it. */
export interface TestExchange {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

export class TestClient {
  readonly cookies = new Map<string, string>();

  /** `observe` sees every answer (the OpenAPI answer check throws from it). */
  constructor(
    readonly baseUrl: string,
    private readonly observe?: (exchange: TestExchange) => void,
  ) {}

  get csrfToken(): string | undefined {
    return this.cookies.get('csrftoken');
  }

  get sessionToken(): string | undefined {
    return this.cookies.get('sealdrop_session');
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (MUTATING.has(method) && options.csrf !== false) {
      const token = options.csrf ?? this.csrfToken;
      if (token !== undefined) headers['x-csrftoken'] = token;
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.storeCookie(line);
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const parsed = contentType?.includes('application/json') && text ? JSON.parse(text) : text;
    this.observe?.({ method, path, status: response.status, contentType, body: parsed });
    return { status: response.status, body: parsed, headers: response.headers, setCookies };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, json === undefined ? options : { ...options, json });
  }

  put<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, json === undefined ? options : { ...options, json });
  }

  /** Picks up a csrftoken cookie the way the app does on start-up (GET /api/auth/users/me). */
  async primeCsrf(): Promise<void> {
    if (!this.csrfToken) await this.get('/api/auth/users/me');
  }

  /** POST /api/auth/prelogin: the parameter block the server gives for `username`. */
  async prelogin(username: string): Promise<string> {
    await this.primeCsrf();
    const response = await this.post<{ kdf_params: string }>('/api/auth/prelogin', { username });
    if (response.status !== 200) throw new Error(`prelogin failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.kdf_params;
  }

  /** The authentication secret of `password` for `username`, derived as the browser derives it. */
  async authSecret(username: string, password: string): Promise<string> {
    return deriveAccountSecrets(password, await this.prelogin(username)).authSecret;
  }

  /** The password step of the login form: pre-login, derive, send the authentication secret. */
  async login(username: string, password: string): Promise<TestResponse> {
    const authSecret = await this.authSecret(username, password);
    return this.request('POST', '/api/auth/token', { form: { username, auth_secret: authSecret } });
  }

  /** POST /api/auth/change-password as the app sends it: both secrets, the new one under a fresh block. */
  async changePassword(username: string, oldPassword: string, newPassword: string): Promise<TestResponse> {
    const newKdfParams = newBoundArgon2Block(username);
    return this.post('/api/auth/change-password', {
      old_auth_secret: await this.authSecret(username, oldPassword),
      new_auth_secret: deriveAccountSecrets(newPassword, newKdfParams).authSecret,
      new_kdf_params: newKdfParams,
    });
  }

  /**
   * POST /api/auth/upgrade-login as the app sends it after an account of the old scheme signed in
   * with its password: a fresh block, the secret under it, and the stored private key (if any)
   * opened with the password and wrapped again under the block. `tamper` edits the body first.
   */
  async upgradeLogin(password: string, tamper: (body: Record<string, unknown>) => void = () => {}): Promise<TestResponse> {
    const me = (await this.get<{ username: string; public_key_spki: string }>('/api/auth/users/me')).body;
    const kdfParams = newBoundArgon2Block(me.username);
    const body: Record<string, unknown> = { password, auth_secret: deriveAccountSecrets(password, kdfParams).authSecret, kdf_params: kdfParams };
    const stored = await this.get<{ encryptedPrivateKey: string; kdfSalt: string }>('/api/auth/users/me/encrypted-key');
    if (stored.status === 200) {
      body.private_key = { public_key_spki: me.public_key_spki, ...wrapPrivateKeyScheme2(unwrapPrivateKey(stored.body, password), password, kdfParams) };
    }
    tamper(body);
    return this.post('/api/auth/upgrade-login', body);
  }

  /**
   * POST /api/auth/bind-login as the app sends it after signing in with an unbound (scheme-2)
   * block: the current secret, a fresh block bound to the username, the secret under it and the
   * private key (if any) re-wrapped under it. `tamper` edits the body first.
   */
  async bindLogin(password: string, tamper: (body: Record<string, unknown>) => void = () => {}): Promise<TestResponse> {
    const me = (await this.get<{ username: string; public_key_spki: string }>('/api/auth/users/me')).body;
    const kdfParams = newBoundArgon2Block(me.username);
    const body: Record<string, unknown> = {
      auth_secret: await this.authSecret(me.username, password),
      new_auth_secret: deriveAccountSecrets(password, kdfParams).authSecret,
      new_kdf_params: kdfParams,
    };
    const stored = await this.get<{ encryptedPrivateKey: string; kdfSalt: string }>('/api/auth/users/me/encrypted-key');
    if (stored.status === 200) {
      body.private_key = { public_key_spki: me.public_key_spki, ...wrapPrivateKeyScheme2(unwrapPrivateKey(stored.body, password), password, kdfParams) };
    }
    tamper(body);
    return this.post('/api/auth/bind-login', body);
  }

  /** The password step as an account of the old scheme signs in once: the password itself. */
  async loginWithPassword(username: string, password: string): Promise<TestResponse> {
    await this.primeCsrf();
    return this.request('POST', '/api/auth/token', { form: { username, password } });
  }

  private storeCookie(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const separator = pair!.indexOf('=');
    const name = pair!.slice(0, separator).trim();
    const value = pair!.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key, attrValue] = attribute.trim().split('=');
      if (key?.toLowerCase() === 'max-age') return Number(attrValue) <= 0;
      if (key?.toLowerCase() === 'expires') return Date.parse(attrValue ?? '') <= Date.now();
      return false;
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Attributes of the Set-Cookie line for `name`, lower-cased keys. */
export function cookieAttributes(setCookies: string[], name: string): Map<string, string> | undefined {
  const line = setCookies.find((l) => l.startsWith(`${name}=`));
  if (!line) return undefined;
  const attributes = new Map<string, string>();
  for (const part of line.split(';').slice(1)) {
    const [key, value] = part.trim().split('=');
    attributes.set(key!.toLowerCase(), value ?? '');
  }
  return attributes;
}
