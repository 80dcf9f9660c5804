// Gives each service worker build a key of its own code: the service worker keeps its build's list
// of digests in a cache named after its precache manifest *and* this key (workers/sw.ts), because
// a release that changes only the worker's code (the download service lives there) leaves the
// precache manifest unchanged, and the new worker would otherwise overwrite the list the running
// one shows. The key is the SHA-256 of the worker's bundled code with the placeholder still in it,
// written over the placeholder (same length, so the source map stays right). Reproducible: the
// same code gives the same key.
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** Exactly as it appears in workers/sw.ts; 32 characters, as the key that replaces it. */
export const SW_CODE_KEY_PLACEHOLDER = 'sealdrop-sw-code-key-placeholder';

export function swCodeKeyPlugin(): Plugin {
  return {
    name: 'sealdrop:sw-code-key',
    apply: 'build',
    generateBundle(_options, bundle) {
      let found = false;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !output.code.includes(SW_CODE_KEY_PLACEHOLDER)) continue;
        const key = createHash('sha256').update(output.code).digest('hex').slice(0, SW_CODE_KEY_PLACEHOLDER.length);
        output.code = output.code.replaceAll(SW_CODE_KEY_PLACEHOLDER, key);
        found = true;
      }
      // The worker without its key would share a cache name between builds: fail the build instead.
      if (!found) this.error(`The service worker bundle does not contain ${SW_CODE_KEY_PLACEHOLDER} (workers/sw.ts).`);
    },
  };
}
