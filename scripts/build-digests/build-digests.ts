// Writes dist/build-digests.json (contract/build-digests.ts): every file the build wrote, with its
// SHA-256, and the build digest over the list. Runs as the last step of `vite build`
// (buildDigestsPlugin, after vite-plugin-pwa has written sw.js), so the list covers the service
// worker and its precache manifest too; `npm run verify-site` compares a server against it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import {
  BUILD_DIGESTS_FILE,
  BUILD_DIGESTS_FORMAT,
  buildDigestText,
  compareBuildPaths,
  parseBuildDigests,
  type BuildDigests,
  type BuildFileDigest,
} from '../../contract/build-digests.ts';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under dir as a '/'-separated relative path, sorted; the list itself left out. */
export async function listBuildFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((relative) => relative !== BUILD_DIGESTS_FILE)
    .sort(compareBuildPaths);
}

export async function computeBuildDigests(dir: string, version: string): Promise<BuildDigests> {
  const files: BuildFileDigest[] = [];
  for (const relative of await listBuildFiles(dir)) files.push({ path: relative, sha256: await sha256OfFile(path.join(dir, relative)) });
  const digests: BuildDigests = { format: BUILD_DIGESTS_FORMAT, version, buildDigest: sha256Hex(buildDigestText(files)), files };
  // The same rules the readers apply: a path they would refuse fails the build, not the check.
  return parseBuildDigests(digests);
}

export async function writeBuildDigests(dir: string, version: string): Promise<BuildDigests> {
  const digests = await computeBuildDigests(dir, version);
  await writeFile(path.join(dir, BUILD_DIGESTS_FILE), `${JSON.stringify(digests, null, 2)}\n`);
  return digests;
}

/** The Vite plugin: writes the list once every other plugin's closeBundle (the service worker's) has run. */
export function buildDigestsPlugin(version: string): Plugin {
  let outDir = 'dist';
  return {
    name: 'sealdrop:build-digests',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const digests = await writeBuildDigests(outDir, version);
        this.info(`build digest ${digests.buildDigest} (${digests.files.length} files, ${BUILD_DIGESTS_FILE})`);
      },
    },
  };
}
