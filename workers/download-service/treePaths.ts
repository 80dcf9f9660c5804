/**
 * The browser's one set of rules for the names a download writes. A relative path ('docs/2024/
 * a.txt') becomes directory segments and a file name, in two layers:
 * - every path (a ZIP's entries, a folder saved direct to disk): no segment can climb out ('..',
 *   an absolute path, a drive letter, '\' as a separator, a segment of dots and spaces that Windows
 *   would read as '..') and none carries a control character; everything else stays as the
 *   uploader named it, so a ZIP holds the names the admin sees (entryPath, uniqueEntryPaths);
 * - on top of that, for what is created through the File System Access API: names every desktop
 *   file system accepts (sanitizeName, treePath).
 * A name already taken gets ' (2)', ' (3)' before its extension, as browsers do for downloads. The
 * server checks uploaded names by its own rules (server/upload/file-names.ts: it refuses where these
 * repair). Nothing here touches a file system (direct/treeWriter.ts does).
 *
 * Every result is a fixed point: made safe again, a safe name or path stays as it is. The page
 * names a ZIP's entries with uniqueEntryPaths and the service worker applies it again to whatever
 * plan it is given, so the two always agree on the names (and on the archive's length).
 */

export interface TreePath {
  readonly directories: readonly string[];
  readonly name: string;
}

const SEPARATORS = /[/\\]+/;
/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Half of a surrogate pair without its other half: not text any file system can store. */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** '', '.', '..' and what Windows trims to one of them ('.. ', '...'). */
const DOTS_AND_SPACES_ONLY = /^[. ]*$/;
/** 'C:' at the start of a path: absolute on Windows. */
const DRIVE_PREFIX = /^([A-Za-z]):/;
/** Characters Windows forbids in names (and the separators everywhere). */
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*]/g;
/** Device names Windows reserves, with or without an extension ('CON', 'nul.txt', 'COM1.log'). */
const RESERVED_NAMES = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
/**
 * Extensions Chromium refuses to create through the File System Access API (shell-integrated:
 * shortcuts and the like); such a file is saved with '_' appended, so it arrives but is inert.
 */
const REFUSED_EXTENSIONS = /\.(lnk|local|url|scf)$/i;
/** Most file systems allow 255 bytes per name; keep well below that for UTF-8. */
const MAX_NAME_LENGTH = 200;
/** A longer "extension" is no extension: it is shortened with the rest of the name. */
const MAX_EXTENSION_LENGTH = 19;
const PLACEHOLDER = '_';
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** The first layer, for one segment of a path (separators already split off). */
function safeSegment(segment: string): string {
  const name = segment.replace(LONE_SURROGATES, '\uFFFD').replace(CONTROL_CHARACTERS, PLACEHOLDER);
  return DOTS_AND_SPACES_ONLY.test(name) ? PLACEHOLDER : name;
}

function segmentsOf(relativePath: string): string[] {
  const segments = relativePath.split(SEPARATORS).filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) segments.push('');
  segments[0] = segments[0]!.replace(DRIVE_PREFIX, `$1${PLACEHOLDER}`);
  return segments.map(safeSegment);
}

/**
 * stem + middle + extension, the stem shortened (at a character boundary, and never left ending in
 * a dot or a space) where the whole would pass `limit`.
 */
function withinLimit(stem: string, middle: string, extension: string, limit: number): string {
  if (stem.length + middle.length + extension.length <= limit) return stem + middle + extension;
  const keep = extension.length <= MAX_EXTENSION_LENGTH ? extension : '';
  let cut = (keep ? stem : stem + extension).slice(0, limit - middle.length - keep.length);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  cut = cut.replace(TRAILING_DOTS_AND_SPACES, '');
  return (cut === '' ? PLACEHOLDER : cut) + middle + keep;
}

/** One path segment made safe to create on any desktop file system; never empty, never '.' or '..'. */
export function sanitizeName(segment: string): string {
  let name = safeSegment(segment).normalize('NFC').replace(FORBIDDEN_CHARACTERS, PLACEHOLDER);
  // Windows drops trailing dots and spaces silently, which would merge 'a.' and 'a'.
  name = name.replace(TRAILING_DOTS_AND_SPACES, '').trimStart();
  if (name === '') return PLACEHOLDER;
  if (RESERVED_NAMES.test(name)) name = PLACEHOLDER + name;
  if (REFUSED_EXTENSIONS.test(name)) name += PLACEHOLDER;
  const [stem, extension] = splitExtension(name);
  name = withinLimit(stem, '', extension, MAX_NAME_LENGTH);
  // Shortening can bare what was safe before it: a device name, when the cut leaves 'con' of
  // 'con . . . ._' with its extension ('con. _'), and a refused extension inside the name, when a
  // long one is dropped. A name that bares a device name was cut to a few characters, so the
  // placeholder in front keeps it within the limit.
  if (RESERVED_NAMES.test(name)) name = PLACEHOLDER + name;
  return REFUSED_EXTENSIONS.test(name) ? name.slice(0, -1) + PLACEHOLDER : name;
}

/** 'docs/2024/a.txt' -> { directories: ['docs', '2024'], name: 'a.txt' }, each made safe to create. */
export function treePath(relativePath: string): TreePath {
  const segments = segmentsOf(relativePath).map(sanitizeName);
  const name = segments.pop()!;
  return { directories: segments, name };
}

/** The n-th alternative of a taken name (n >= 2): 'a.txt' -> 'a (2).txt', '.env' -> '.env (2)'. */
export function numberedName(name: string, n: number, limit = MAX_NAME_LENGTH): string {
  const [stem, extension] = splitExtension(name);
  return withinLimit(stem, ` (${n})`, extension, limit);
}

/** Alternatives to try, in order, for a name: the name itself, then ' (2)' ... up to the limit. */
export function* candidateNames(name: string, limit = 1000): Generator<string> {
  yield name;
  for (let n = 2; n <= limit; n++) yield numberedName(name, n);
}

/** A path that may stand in a ZIP ('/'-separated, relative, first layer only). */
export function entryPath(relativePath: string): string {
  return segmentsOf(relativePath).join('/');
}

/**
 * The entries of one archive, in order: each path made safe (entryPath), and unique ignoring case
 * (as Windows and macOS compare names): a later one whose path is taken gets ' (2)', ' (3)' ...
 * before its extension.
 */
export function uniqueEntryPaths(paths: readonly string[]): string[] {
  const taken = new Set<string>();
  return paths.map((path) => {
    const safe = entryPath(path);
    const slash = safe.lastIndexOf('/');
    const [prefix, name] = [safe.slice(0, slash + 1), safe.slice(slash + 1)];
    let candidate = safe;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = prefix + numberedName(name, n, Infinity);
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
