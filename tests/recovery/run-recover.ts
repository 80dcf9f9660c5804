// Runs the real recover command as a child process, as an operator would (node + tsx, no server).
import { spawn } from 'node:child_process';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlainFile } from './export-fixtures.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface RecoverResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runRecover(args: string[], stdin: string): Promise<RecoverResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/recover.ts', ...args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Every entry under dir, as "relative/path" -> contents (files) or "dir/" -> null (directories). */
export async function treeOf(dir: string): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  async function walk(current: string, prefix: string): Promise<void> {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const stats = await lstat(full);
      if (stats.isDirectory()) {
        out.set(`${prefix}${name}/`, null);
        await walk(full, `${prefix}${name}/`);
      } else {
        out.set(`${prefix}${name}`, await readFile(full));
      }
    }
  }
  await walk(dir, '');
  return out;
}

/** The lines of a stream's text, without the empty one after the final newline. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** The output tree the recovered files must form: every directory and every file's bytes. */
export function expectedTree(files: PlainFile[]): Map<string, Buffer | null> {
  const tree = new Map<string, Buffer | null>();
  for (const file of files) {
    const dirs = file.relativePath === '.' ? [] : file.relativePath.split('/');
    dirs.forEach((_, i) => tree.set(`${dirs.slice(0, i + 1).join('/')}/`, null));
    tree.set([...dirs, file.name].join('/'), file.bytes);
  }
  return tree;
}

/**
 * Byte-exact comparison of an output directory with the expected tree, as a short list of
 * differences (empty when equal): a failing test then shows names, not megabytes of buffer diff.
 */
export async function treeDifferences(dir: string, expected: Map<string, Buffer | null>): Promise<string[]> {
  const actual = await treeOf(dir);
  const differences: string[] = [];
  for (const [name, bytes] of expected) {
    const found = actual.get(name);
    if (found === undefined) differences.push(`missing: ${name}`);
    else if (bytes === null || found === null) {
      if (bytes !== found) differences.push(`file/directory mix-up: ${name}`);
    } else if (!found.equals(bytes)) {
      differences.push(`differs: ${name} (${found.length} bytes, expected ${bytes.length})`);
    }
  }
  for (const name of actual.keys()) if (!expected.has(name)) differences.push(`unexpected: ${name}`);
  return differences.sort();
}
