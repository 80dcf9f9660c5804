// The File objects behind the queue's entries. Files cannot live in the Redux store (they are not
// serialisable), so the queue holds each entry's id and this map holds its File. The upload page
// is one per tab, so one map serves it; it is emptied whenever the page opens a link.

const files = new Map<string, File>();
let counter = 0;

export function registerFile(file: File): string {
  const id = `f${++counter}-${Date.now().toString(36)}`;
  files.set(id, file);
  return id;
}

export function fileOf(id: string): File | undefined {
  return files.get(id);
}

export function forgetFile(id: string): void {
  files.delete(id);
}

export function forgetAllFiles(): void {
  files.clear();
}
