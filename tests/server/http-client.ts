// A small HTTP client for the server tests: real fetch over a real socket, a cookie jar, and the
// CSRF header copied from the csrftoken cookie on mutating requests (as the browser app does).
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

export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

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
    const isJson = response.headers.get('content-type')?.includes('application/json');
    return { status: response.status, body: isJson && text ? JSON.parse(text) : text, headers: response.headers, setCookies };
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

  /** The password step of the login form. */
  async login(username: string, password: string): Promise<TestResponse> {
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
