// An origin-private file system in memory for node tests of the upload spool
// (workers/ciphertext-spool.ts): directory and file handles, synchronous access handles with their
// exclusive lock, and Web Locks, as far as the spool uses them. `stallNextOpen` makes the next
// createSyncAccessHandle() answer only when the test says so (or never), as Chromium was seen to do.

class FakeSyncAccessHandle {
  constructor(
    private readonly file: FakeFileHandle,
    private readonly fs: FakeOpfs,
  ) {}

  truncate(size: number): void {
    this.file.data = this.file.data.slice(0, size);
  }

  write(buffer: Uint8Array, options: { at: number }): number {
    const room = this.fs.diskFull ? 0 : buffer.byteLength;
    const end = options.at + room;
    const grown = new Uint8Array(Math.max(end, this.file.data.byteLength));
    grown.set(this.file.data);
    grown.set(buffer.subarray(0, room), options.at);
    this.file.data = grown;
    return room;
  }

  close(): void {
    this.file.locked = false;
  }
}

export class FakeFileHandle {
  readonly kind = 'file';
  data = new Uint8Array(0);
  locked = false;

  constructor(
    readonly name: string,
    private readonly fs: FakeOpfs,
  ) {}

  async getFile(): Promise<File> {
    return new File([this.data.slice()], this.name);
  }

  createSyncAccessHandle(): Promise<FakeSyncAccessHandle> {
    const open = async () => {
      if (this.locked) throw new DOMException('another handle is open', 'NoModificationAllowedError');
      this.locked = true;
      return new FakeSyncAccessHandle(this, this.fs);
    };
    const stall = this.fs.takeStall();
    return stall ? stall.then(open) : open();
  }
}

export class FakeDirectoryHandle {
  readonly kind = 'directory';
  readonly entries = new Map<string, FakeDirectoryHandle | FakeFileHandle>();

  constructor(
    readonly name: string,
    private readonly fs: FakeOpfs,
  ) {}

  getDirectoryHandle(name: string, options: { create?: boolean } = {}): Promise<FakeDirectoryHandle> {
    this.fs.count('getDirectoryHandle');
    return this.entry(name, options, FakeDirectoryHandle);
  }

  getFileHandle(name: string, options: { create?: boolean } = {}): Promise<FakeFileHandle> {
    this.fs.count('getFileHandle');
    return this.entry(name, options, FakeFileHandle);
  }

  private async entry<T extends FakeDirectoryHandle | FakeFileHandle>(
    name: string,
    options: { create?: boolean },
    Kind: new (name: string, fs: FakeOpfs) => T,
  ): Promise<T> {
    const found = this.entries.get(name);
    if (found instanceof Kind) return found;
    if (found || !options.create) throw new DOMException(name, 'NotFoundError');
    const made = new Kind(name, this.fs);
    this.entries.set(name, made);
    return made;
  }

  async removeEntry(name: string): Promise<void> {
    const found = this.entries.get(name);
    if (!found) throw new DOMException(name, 'NotFoundError');
    if (found instanceof FakeFileHandle && found.locked) throw new DOMException(name, 'NoModificationAllowedError');
    this.entries.delete(name);
  }

  async *keys(): AsyncGenerator<string> {
    for (const name of [...this.entries.keys()]) yield name;
  }

  /** The files below this directory, by path (for assertions). */
  files(prefix = ''): Map<string, FakeFileHandle> {
    const out = new Map<string, FakeFileHandle>();
    for (const [name, entry] of this.entries) {
      if (entry instanceof FakeFileHandle) out.set(`${prefix}${name}`, entry);
      else for (const [path, file] of entry.files(`${prefix}${name}/`)) out.set(path, file);
    }
    return out;
  }
}

export class FakeOpfs {
  readonly root = new FakeDirectoryHandle('', this);
  /** Writes take no bytes (a full disk or quota). */
  diskFull = false;
  /** Calls made so far, by method name (each is a browser round trip in a real OPFS). */
  readonly calls = new Map<string, number>();
  private stalls: Promise<void>[] = [];
  private readonly held = new Set<string>();

  /** The next createSyncAccessHandle() waits for the returned function to be called (never, if it isn't). */
  stallNextOpen(): () => void {
    let release!: () => void;
    this.stalls.push(new Promise<void>((resolve) => (release = resolve)));
    return release;
  }

  count(method: string): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
  }

  takeStall(): Promise<void> | undefined {
    return this.stalls.shift();
  }

  /** What `navigator` needs to hold for the spool: storage.getDirectory, locks, and a core count. */
  navigator(): object {
    return {
      hardwareConcurrency: 2,
      storage: { getDirectory: async () => this.root },
      locks: {
        request: (name: string, callback: () => Promise<unknown>) => {
          this.held.add(name);
          return callback();
        },
        query: async () => ({ held: [...this.held].map((name) => ({ name })) }),
      },
    };
  }
}

/** Installs `fs` as the OPFS seen by the spool's code in this process (page and in-process workers alike). */
export function installFakeOpfs(fs: FakeOpfs, stubGlobal: (name: string, value: unknown) => void): void {
  stubGlobal('navigator', fs.navigator());
  stubGlobal('FileSystemFileHandle', FakeFileHandle);
}
