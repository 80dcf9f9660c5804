/**
 * Pure rules for saving a decrypted tree as real files and folders: a relative path ('docs/2024/
 * a.txt', as inside the ZIP) becomes directory segments and a file name, each one a name every
 * desktop file system accepts; a name already taken gets ' (2)', ' (3)' before its extension, as
 * browsers do for downloads. Nothing here touches a file system (treeWriter.ts does).
 */

export interface TreePath {
  readonly directories: readonly string[];
  readonly name: string;
}

/** Characters Windows forbids in names (and the separators everywhere), plus control characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
/** Device names Windows reserves, with or without an extension ('CON', 'nul.txt', 'COM1.log'). */
const RESERVED_NAMES = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
/**
 * Extensions Chromium refuses to create through the File System Access API (shell-integrated:
 * shortcuts and the like); such a file is saved with '_' appended, so it arrives but is inert.
 */
const REFUSED_EXTENSIONS = /\.(lnk|local|url|scf)$/i;
/** Most file systems allow 255 bytes per name; keep well below that for ' (n)' and UTF-8. */
const MAX_NAME_LENGTH = 200;
const PLACEHOLDER = '_';

function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** One path segment made safe to create; never empty, never '.' or '..'. */
export function sanitizeName(segment: string): string {
  let name = segment.normalize('NFC').replace(FORBIDDEN_CHARACTERS, PLACEHOLDER);
  // Windows drops trailing dots and spaces silently, which would merge 'a.' and 'a'.
  name = name.replace(/[. ]+$/, '').trimStart();
  if (name === '' || name === '.' || name === '..') return PLACEHOLDER;
  if (RESERVED_NAMES.test(name)) name = PLACEHOLDER + name;
  if (REFUSED_EXTENSIONS.test(name)) name += PLACEHOLDER;
  if (name.length > MAX_NAME_LENGTH) {
    const [stem, extension] = splitExtension(name);
    const keep = extension.length < 20 ? extension : '';
    name = stem.slice(0, MAX_NAME_LENGTH - keep.length) + keep;
  }
  return name;
}

/** 'docs/2024/a.txt' -> { directories: ['docs', '2024'], name: 'a.txt' }; '\' separates too. */
export function treePath(relativePath: string): TreePath {
  const segments = relativePath.split(/[/\\]+/).filter((segment) => segment !== '' && segment !== '.');
  const last = segments.pop();
  return { directories: segments.map(sanitizeName), name: sanitizeName(last ?? '') };
}

/** The n-th alternative of a taken name (n >= 2): 'a.txt' -> 'a (2).txt', '.env' -> '.env (2)'. */
export function numberedName(name: string, n: number): string {
  const [stem, extension] = splitExtension(name);
  return `${stem} (${n})${extension}`;
}

/** Alternatives to try, in order, for a name: the name itself, then ' (2)' ... up to the limit. */
export function* candidateNames(name: string, limit = 1000): Generator<string> {
  yield name;
  for (let n = 2; n <= limit; n++) yield numberedName(name, n);
}
