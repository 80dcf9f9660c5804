/**
 * An in-memory stand-in for the File System Access handles the direct writer uses, for node tests:
 * the same error names (NotFoundError, TypeMismatchError), a writable that, like Chromium's,
 * writes to a temporary copy that replaces the file on close() and is thrown away on abort(), and
 * Chromium's move(name) (a rename within the directory, replacing a file of that name) and remove().
 * `failWritesAfter` makes writes fail (QuotaExceededError) past a byte count, as a full disk would.
 */

function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

export class MemoryFile {
  readonly kind = 'file' as const;
  content = new Uint8Array(0);
  /** Writables opened and not yet closed or aborted. */
  openWritables = 0;
  failWritesAfter: number | null = null;

  constructor(
    public name: string,
    private readonly parent: MemoryDirectory | null = null,
  ) {}

  async move(name: string): Promise<void> {
    if (!this.parent) throw domError('InvalidStateError', 'a file without a directory cannot be renamed');
    if (this.openWritables > 0) throw domError('NoModificationAllowedError', `${this.name} has an open writable`);
    if (this.parent.entries.get(name) instanceof MemoryDirectory) throw domError('TypeMismatchError', `${name} is a directory`);
    this.parent.entries.delete(this.name);
    this.parent.entries.set(name, this);
    this.name = name;
  }

  async remove(): Promise<void> {
    if (!this.parent || this.parent.entries.get(this.name) !== this) throw domError('NotFoundError', `${this.name} not found`);
    this.parent.entries.delete(this.name);
  }

  async createWritable(): Promise<WritableStream<Uint8Array>> {
    const pieces: Uint8Array[] = [];
    let written = 0;
    this.openWritables += 1;
    const file = this;
    return new WritableStream<Uint8Array>({
      write(chunk) {
        written += chunk.byteLength;
        if (file.failWritesAfter !== null && written > file.failWritesAfter) throw domError('QuotaExceededError', 'no space left');
        pieces.push(chunk.slice());
      },
      close() {
        const whole = new Uint8Array(written);
        let at = 0;
        for (const piece of pieces) {
          whole.set(piece, at);
          at += piece.byteLength;
        }
        file.content = whole;
        file.openWritables -= 1;
      },
      abort() {
        pieces.length = 0;
        file.openWritables -= 1;
      },
    });
  }
}

export class MemoryDirectory {
  readonly kind = 'directory' as const;
  readonly entries = new Map<string, MemoryFile | MemoryDirectory>();

  constructor(readonly name: string) {}

  async getDirectoryHandle(name: string, options: { create?: boolean } = {}): Promise<MemoryDirectory> {
    const found = this.entries.get(name);
    if (found instanceof MemoryDirectory) return found;
    if (found) throw domError('TypeMismatchError', `${name} is a file`);
    if (!options.create) throw domError('NotFoundError', `${name} not found`);
    const created = new MemoryDirectory(name);
    this.entries.set(name, created);
    return created;
  }

  async getFileHandle(name: string, options: { create?: boolean } = {}): Promise<MemoryFile> {
    const found = this.entries.get(name);
    if (found instanceof MemoryFile) return found;
    if (found) throw domError('TypeMismatchError', `${name} is a directory`);
    if (!options.create) throw domError('NotFoundError', `${name} not found`);
    const created = new MemoryFile(name, this);
    this.entries.set(name, created);
    return created;
  }

  async removeEntry(name: string): Promise<void> {
    if (!this.entries.delete(name)) throw domError('NotFoundError', `${name} not found`);
  }

  /** 'a/b/c.txt' -> the file, or undefined. */
  file(path: string): MemoryFile | undefined {
    const parts = path.split('/');
    let at: MemoryDirectory | MemoryFile | undefined = this;
    for (const part of parts) at = at instanceof MemoryDirectory ? at.entries.get(part) : undefined;
    return at instanceof MemoryFile ? at : undefined;
  }

  /** Every file's path, sorted. */
  paths(prefix = ''): string[] {
    return [...this.entries].flatMap(([name, entry]) => (entry instanceof MemoryDirectory ? entry.paths(`${prefix}${name}/`) : [`${prefix}${name}`])).sort();
  }

  asHandle(): FileSystemDirectoryHandle {
    return this as unknown as FileSystemDirectoryHandle;
  }
}

export function asFileHandle(file: MemoryFile): FileSystemFileHandle {
  return file as unknown as FileSystemFileHandle;
}
