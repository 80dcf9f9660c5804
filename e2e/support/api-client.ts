// The admin side of upload tests, over real HTTP: create an admin as the CLI does, sign in, give
// them an RSA key pair made by the independent node:crypto implementation (server/crypto), create
// folders, list the files an upload produced and fetch their ciphertext with the wrapped key.
// Bodies are typed by the API contract and every JSON answer is parsed with its schema, so a
// server answer that drifts from contract/ fails the test that received it.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { loginResponse, preloginResponse, userResponse, type PreloginBody } from '../../contract/auth.ts';
import { fileListResponse, type FileRecord } from '../../contract/files.ts';
import { folderResponse, type Folder, type FolderPayload } from '../../contract/folders.ts';
import type { PublicKeyBody } from '../../contract/keys.ts';
import { deriveAccountSecrets, generateRsaKeyPair, type NodeKeyPair } from '../../server/crypto/index.ts';
import { createAccount } from './accounts.ts';

/** Folder fields a test sets; the others take the defaults below and the route's. */
export type FolderOptions = Partial<FolderPayload>;

/** A JSON answer read through its contract schema (throws on a body that does not match). */
async function parsed<T extends z.ZodType>(response: Response, schema: T): Promise<z.output<T>> {
  return schema.parse(await response.json());
}

/** A signed-in admin of one server, holding cookies like a browser. */
export class AdminClient {
  private readonly cookies = new Map<string, string>();

  private constructor(
    readonly baseUrl: string,
    readonly username: string,
  ) {}

  /** A fresh admin (made as the CLI makes it, in the database under `dataDir`), signed in, with a new RSA key pair whose public key is on the server. */
  static async create(baseUrl: string, dataDir: string, prefix = 'uploader-admin'): Promise<{ admin: AdminClient; keys: NodeKeyPair }> {
    const username = `${prefix}-${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    await createAccount(dataDir, { username, password });
    const admin = new AdminClient(baseUrl, username);
    await admin.request('GET', '/api/auth/users/me');
    // As the browser signs in: pre-login for the account's parameters, then the derived secret.
    const prelogin: PreloginBody = { username };
    const { kdf_params } = await parsed(await admin.request('POST', '/api/auth/prelogin', prelogin), preloginResponse);
    const { authSecret } = deriveAccountSecrets(password, kdf_params);
    const login = await admin.request('POST', '/api/auth/token', new URLSearchParams({ username, auth_secret: authSecret }));
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    if (!('user' in (await parsed(login, loginResponse)))) throw new Error('login asked for a second factor');
    const keys = generateRsaKeyPair();
    const publicKey: PublicKeyBody = { public_key_spki: keys.publicKeySpki };
    const put = await admin.request('PUT', '/api/auth/public-key', publicKey);
    if (put.status !== 200) throw new Error(`setting the public key failed: ${put.status} ${await put.text()}`);
    await parsed(put, userResponse);
    return { admin, keys };
  }

  async createFolder(options: FolderOptions = {}): Promise<Folder> {
    const payload: FolderPayload = { title: 'Uploads', expires_in_days: 30, ...options };
    const response = await this.request('POST', '/api/folders/', payload);
    if (response.status !== 201) throw new Error(`creating the folder failed: ${response.status} ${await response.text()}`);
    return parsed(response, folderResponse);
  }

  async deleteFolder(folderId: number): Promise<void> {
    const response = await this.request('DELETE', `/api/folders/${folderId}`);
    if (response.status !== 204) throw new Error(`deleting the folder failed: ${response.status}`);
  }

  async listFiles(folderId: number): Promise<FileRecord[]> {
    const response = await this.request('GET', `/api/folders/${folderId}/files`);
    if (response.status !== 200) throw new Error(`listing files failed: ${response.status}`);
    return parsed(response, fileListResponse);
  }

  /** The stored ciphertext of a file, as the admin download route streams it. */
  async downloadCiphertext(fileId: number): Promise<Response> {
    const response = await this.request('GET', `/api/folders/download/${fileId}`);
    if (response.status !== 200) throw new Error(`download failed: ${response.status}`);
    return response;
  }

  async request(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('csrftoken');
    if (method !== 'GET' && csrf) headers['x-csrftoken'] = decodeURIComponent(csrf);
    let payload: string | undefined;
    if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair!.indexOf('=');
      const value = pair!.slice(separator + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(pair!.slice(0, separator));
      else this.cookies.set(pair!.slice(0, separator), value);
    }
    return response;
  }
}
