// An in-memory file system with the File System Access API's shape (kind, name, getFile, values,
// isSameEntry) and its permission model (queryPermission, requestPermission), for unit tests of the
// handle code. Cast with asFileHandle / asFolderHandle where the app's types are wanted.
export type Permission = 'granted' | 'prompt' | 'denied';

/** What a fake handle's permission prompt answers, and how often it was asked. */
export class Permissions {
  asked = 0;
  constructor(public answer: Permission = 'granted', public current: Permission = 'prompt') {}
}

export class FakeFile {
  readonly kind = 'file';
  constructor(
    readonly name: string,
    public content: string,
    public lastModified: number,
    private readonly permissions: Permissions,
    public gone = false,
  ) {}
  async getFile(): Promise<File> {
    if (this.gone) throw new DOMException('A requested file or directory could not be found.', 'NotFoundError');
    return new File([this.content], this.name, { lastModified: this.lastModified });
  }
  async isSameEntry(other: unknown): Promise<boolean> {
    return other === this;
  }
  async queryPermission(): Promise<Permission> {
    return this.permissions.current;
  }
  async requestPermission(): Promise<Permission> {
    this.permissions.asked++;
    this.permissions.current = this.permissions.answer;
    return this.permissions.answer;
  }
}

export class FakeFolder {
  readonly kind = 'directory';
  readonly children: Array<FakeFile | FakeFolder> = [];
  constructor(
    readonly name: string,
    private readonly permissions: Permissions,
  ) {}
  async *values(): AsyncIterable<FakeFile | FakeFolder> {
    yield* this.children;
  }
  async isSameEntry(other: unknown): Promise<boolean> {
    return other === this;
  }
  async queryPermission(): Promise<Permission> {
    return this.permissions.current;
  }
  async requestPermission(): Promise<Permission> {
    this.permissions.asked++;
    this.permissions.current = this.permissions.answer;
    return this.permissions.answer;
  }
}

export const asFileHandle = (f: FakeFile) => f as unknown as FileSystemFileHandle;
export const asFolderHandle = (f: FakeFolder) => f as unknown as FileSystemDirectoryHandle;
