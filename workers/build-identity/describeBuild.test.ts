import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { BUILD_DIGESTS_FORMAT, buildDigestText, type BuildDigests } from '../../contract/build-digests.ts';
import { buildDigestsCacheName, describeBuild, fetchBuildDigestsText, webCryptoSha256 } from './describeBuild.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const CONTENT: Record<string, string> = { 'index.html': '<html>', 'assets/app-1.js': 'app()', 'screenshots/wide.png': 'png', 'sw.js': 'sw' };

function listOf(content: Record<string, string>, version = '1.0.0'): BuildDigests {
  const files = Object.entries(content)
    .map(([path, text]) => ({ path, sha256: sha(text) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  return { format: BUILD_DIGESTS_FORMAT, version, buildDigest: sha(buildDigestText(files)), files };
}

/** The precache as the worker sees it: index.html and the script cached, screenshots and sw.js not. */
function precache(content: Record<string, string>) {
  return (path: string) => Promise.resolve(path === '/index.html' || path === '/assets/app-1.js' ? new Response(content[path.slice(1)]) : undefined);
}

describe('describeBuild', () => {
  it('reports the recomputed build digest and checks every cached file against the list', async () => {
    const list = listOf(CONTENT);
    const identity = await describeBuild(JSON.stringify(list), precache(CONTENT));
    expect(identity).toEqual({ version: '1.0.0', buildDigest: list.buildDigest, listedFiles: 4, checkedFiles: 2, mismatchedFiles: [] });
  });

  it('names a cached file whose bytes differ from the list', async () => {
    const identity = await describeBuild(JSON.stringify(listOf(CONTENT)), precache({ ...CONTENT, 'assets/app-1.js': 'app(); steal()' }));
    expect(identity.mismatchedFiles).toEqual(['assets/app-1.js']);
  });

  it('refuses a list whose build digest field does not match its files', async () => {
    const list = { ...listOf(CONTENT), buildDigest: listOf({ ...CONTENT, 'sw.js': 'other' }).buildDigest };
    await expect(describeBuild(JSON.stringify(list), precache(CONTENT))).rejects.toMatchObject({ code: 'BUILD_DIGEST_MISMATCH' });
  });
});

describe('fetchBuildDigestsText (at install)', () => {
  it('fetches the list past the HTTP cache and keeps its text', async () => {
    const text = JSON.stringify(listOf(CONTENT));
    const fetchFn = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(new Response(text)));
    expect(await fetchBuildDigestsText(fetchFn as typeof fetch)).toBe(text);
    expect(fetchFn.mock.calls[0]![0]).toBe('/build-digests.json');
    expect(fetchFn.mock.calls[0]![1]).toMatchObject({ cache: 'no-store' });
  });

  it('fails (and with it the install) on a missing, malformed or inconsistent list', async () => {
    const answers = [new Response('nope', { status: 404 }), new Response('<html>'), new Response(JSON.stringify({ ...listOf(CONTENT), buildDigest: 'f'.repeat(64) }))];
    for (const answer of answers) await expect(fetchBuildDigestsText(() => Promise.resolve(answer))).rejects.toHaveProperty('code');
  });
});

describe('the per-build cache name', () => {
  it('differs between precache manifests and between worker codes, and is stable for one build', () => {
    const a = [{ url: 'index.html', revision: '1' }];
    const b = [{ url: 'index.html', revision: '2' }];
    expect(buildDigestsCacheName('k1', a)).toBe(buildDigestsCacheName('k1', [{ url: 'index.html', revision: '1' }]));
    expect(buildDigestsCacheName('k1', a)).not.toBe(buildDigestsCacheName('k1', b));
    expect(buildDigestsCacheName('k1', a)).not.toBe(buildDigestsCacheName('k2', a));
  });

  it('hashes with WebCrypto the same as node', async () => {
    expect(await webCryptoSha256(new TextEncoder().encode('abc').buffer as ArrayBuffer)).toBe(sha('abc'));
  });
});
