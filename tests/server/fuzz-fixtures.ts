// The world the API fuzzer runs in: a server whose DATA_DIR sits alone inside a sandbox folder
// (so anything written beside it is a traversal that escaped), a signed-in admin with a folder, a
// file and download links, another admin's folder and file, upload links with and without a
// password, and a tus upload in progress. A fuzz case may legitimately delete any of the admin's
// things or end the session (logout, a password change that happens to use the right password);
// `afterAdminRequest` signs the admin in again, or makes its things anew, when that happened.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../server/auth/passwords.ts';
import type { FileRecord, Folder } from '../../server/db/repositories/index.ts';
import { newToken, sha256Hex } from '../../server/auth/tokens.ts';
import { ESCAPE_MARKER, type Fixtures } from './fuzz-arbitraries.ts';
import { startServer, type TestServer } from './harness.ts';
import { seedFile } from './files-fixtures.ts';
import { createFolderOf, createUploadFolder, tusCreate } from './upload-helpers.ts';

const ADMIN_PASSWORD = 'correct horse';
/** An anonymous browser's CSRF token (cookie and header agree, no session). */
const ANONYMOUS_CSRF = 'B'.repeat(43);

export type Identity = 'anonymous' | 'admin';
export type CsrfVariant = 'valid' | 'missing' | 'wrong';

interface AdminState {
  userId: number;
  session: string;
  csrf: string;
}

/** A folder of `ownerId` with no gates, made through the repository. */
function plainFolder(server: TestServer, ownerId: number, title: string): Promise<Folder> {
  return createFolderOf(server, ownerId, { title });
}

export class FuzzWorld {
  fixtures!: Fixtures;
  private admin!: AdminState;
  /** How many times a case took the admin's session or things away and they were made anew. */
  adminRenewals = 0;

  private constructor(
    readonly server: TestServer,
    readonly sandbox: string,
    readonly port: number,
  ) {}

  static async start(): Promise<FuzzWorld> {
    const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-fuzz-'));
    const server = await startServer({
      env: {
        DATA_DIR: path.join(sandbox, 'data'),
        // Fuzzed logins and link passwords fail by the hundred; the admin must still be able to sign in.
        RATE_LIMIT_ACCOUNT_FAILURES: '1000000',
        RATE_LIMIT_IP_FAILURES: '1000000',
        RATE_LIMIT_PRELOGIN_PER_IP: '1000000',
        UPLOAD_CODE_REQUESTS_PER_ADDRESS: '1000000',
        UPLOAD_CODE_REQUESTS_PER_IP: '1000000',
        UPLOAD_MAX_FILE_MB: '1',
        UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
      },
    });
    const world = new FuzzWorld(server, sandbox, Number(new URL(server.baseUrl).port));
    await world.setUp();
    return world;
  }

  private async setUp(): Promise<void> {
    const { server } = this;
    const other = await server.createUser(`other_${randomBytes(3).toString('hex')}`, ADMIN_PASSWORD);
    const otherFolder = await plainFolder(server, other.id, 'Not yours');
    const otherFile = await seedFile(server, otherFolder.id);
    const uploadFolder = await createUploadFolder(server);
    const gatedFolder = await createUploadFolder(server, { linkPassword: 'link password 1' });
    // E-mail verification without an allowed list: any address gets as far as the code lookup.
    const emailFolder = await createUploadFolder(server, { requireEmail: true });
    this.fixtures = {
      adminFolderId: '',
      adminFileId: '',
      otherFolderId: String(otherFolder.id),
      otherFileId: String(otherFile.id),
      downloadToken: '',
      passwordDownloadToken: '',
      uploadToken: uploadFolder.linkToken,
      gatedUploadToken: gatedFolder.linkToken,
      emailUploadToken: emailFolder.linkToken,
      tusUploadId: '',
    };
    await this.newTusUpload();
    await this.newAdmin();
  }

  /** A tus upload of the ungated link, created and not yet complete. */
  private async newTusUpload(): Promise<void> {
    const folder = await this.server.app.repos.folders.findByLinkToken(this.fixtures.uploadToken);
    const created = await tusCreate(this.server.client(), folder as Folder, this.server.app.uploads.sizes.encryptedLength(100_000), {
      filename: 'in-progress.bin',
      plainSize: 100_000,
    });
    if (created.status !== 201) throw new Error(`tus fixture: ${created.status} ${String(created.body)}`);
    this.fixtures.tusUploadId = created.headers.get('location')!.split('/').pop()!;
  }

  /** A fresh tus upload when a case deleted or finished the last one. */
  async ensureTusUpload(): Promise<void> {
    const session = await this.server.app.repos.uploadSessions.find(this.fixtures.tusUploadId);
    if (!session || session.finishedAt !== null) await this.newTusUpload();
  }

  /** Bytes stored so far for the fixture upload (what a correct Upload-Offset says). */
  tusOffset(): number {
    const file = path.join(this.server.config.dataDir, 'blobs', 'uploads', this.fixtures.tusUploadId);
    return fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  /** A new admin, signed in, with a folder, a file in it and a download link with and without password. */
  private async newAdmin(): Promise<void> {
    const { server } = this;
    const username = `fuzzadmin_${randomBytes(4).toString('hex')}`;
    const user = await server.createUser(username, ADMIN_PASSWORD);
    const client = server.client();
    const login = await client.login(username, ADMIN_PASSWORD);
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
    this.admin = { userId: user.id, session: client.sessionToken!, csrf: client.csrfToken! };
    await this.newAdminThings();
  }

  private async newAdminThings(): Promise<void> {
    const { server, admin } = this;
    const repos = server.app.repos;
    const folder = await plainFolder(server, admin.userId, 'Fuzz folder');
    // A name that tests Content-Disposition: quotes, a backslash, a semicolon, %22, emoji, a bidi override.
    const file = await seedFile(server, folder.id, { name: 'répört "q" \\;%22 😀 \u202Etxt.exe' });
    const link = (verifierHash: string | null, keys: string | null) =>
      repos.downloadLinks.create({
        linkToken: newToken(),
        folderId: folder.id,
        ownerId: admin.userId,
        verifierHash,
        reencryptedKeysJson: keys,
        expirationDate: null,
        creationDate: server.clock.now(),
        fileIds: [file.id],
      });
    const open = await link(null, null);
    const locked = await link(await hashPassword('link verifier 1'), JSON.stringify({ [file.id]: 'a2V5:aXY=' }));
    Object.assign(this.fixtures, {
      adminFolderId: String(folder.id),
      adminFileId: String(file.id),
      downloadToken: open.linkToken,
      passwordDownloadToken: locked.linkToken,
    });
  }

  /**
   * Call after each admin request: when it changed something (a 2xx to a mutating method), checks
   * what it may have taken away (the session, the folder, file or links) and puts it back.
   */
  async afterAdminRequest(method: string, status: number): Promise<void> {
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || status < 200 || status >= 300) return;
    const repos = this.server.app.repos;
    const { userId } = this.admin;
    const session = await repos.sessions.findByTokenHash(sha256Hex(this.admin.session));
    if (!session || session.userId !== userId) {
      this.adminRenewals += 1;
      await this.signInAgain();
    }
    const intact =
      (await repos.folders.findOwned(this.admin.userId, Number(this.fixtures.adminFolderId))) &&
      (await repos.files.findOwned(this.admin.userId, Number(this.fixtures.adminFileId))) &&
      (await repos.downloadLinks.findByToken(this.fixtures.downloadToken)) &&
      (await repos.downloadLinks.findByToken(this.fixtures.passwordDownloadToken));
    if (!intact) {
      this.adminRenewals += 1;
      await this.newAdminThings();
    }
  }

  /** After a logout: the same admin signs in again (under its current name); a new admin if that fails. */
  private async signInAgain(): Promise<void> {
    const user = await this.server.app.repos.users.findById(this.admin.userId);
    const client = this.server.client();
    if (user && !user.is2faEnabled && (await client.login(user.username, ADMIN_PASSWORD)).status === 200) {
      this.admin = { userId: user.id, session: client.sessionToken!, csrf: client.csrfToken! };
      return;
    }
    await this.newAdmin();
  }

  /** Cookie and CSRF headers of an identity. */
  identityHeaders(identity: Identity, csrf: CsrfVariant): Array<[string, string]> {
    const token = identity === 'admin' ? this.admin.csrf : ANONYMOUS_CSRF;
    const cookie = identity === 'admin' ? `sealdrop_session=${this.admin.session}; csrftoken=${token}` : `csrftoken=${token}`;
    const headers: Array<[string, string]> = [['cookie', cookie]];
    if (csrf === 'valid') headers.push(['x-csrftoken', token]);
    if (csrf === 'wrong') headers.push(['x-csrftoken', 'C'.repeat(43)]);
    return headers;
  }

  /** The file records of both upload links (multipart and completed tus uploads land there). */
  async uploadedRecords(): Promise<FileRecord[]> {
    const records: FileRecord[] = [];
    for (const token of [this.fixtures.uploadToken, this.fixtures.gatedUploadToken, this.fixtures.emailUploadToken]) {
      const folder = await this.server.app.repos.folders.findByLinkToken(token);
      if (folder) records.push(...(await this.server.app.repos.files.listForFolder(folder.id)));
    }
    return records;
  }

  /** Files under DATA_DIR/blobs/files (half-written ones too): one per multipart-uploaded record. */
  multipartBlobs(): string[] {
    const dir = path.join(this.server.config.dataDir, 'blobs', 'files');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  }

  /** Paths outside DATA_DIR that hold a fuzz sentinel, or anything but DATA_DIR in the sandbox. */
  escapes(): string[] {
    const found = fs.readdirSync(this.sandbox).filter((entry) => entry !== 'data').map((entry) => path.join(this.sandbox, entry));
    for (const dir of [os.tmpdir(), path.dirname(os.tmpdir()), '/', '/etc']) {
      for (const entry of fs.readdirSync(dir)) if (entry.includes(ESCAPE_MARKER)) found.push(path.join(dir, entry));
    }
    return found;
  }

  async close(): Promise<void> {
    await this.server.close();
    fs.rmSync(this.sandbox, { recursive: true, force: true });
  }
}
