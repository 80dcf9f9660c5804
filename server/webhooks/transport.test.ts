import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { postWebhook, refusalOf } from './transport.ts';

describe('where a webhook may be delivered', () => {
  it('refuses link-local (cloud metadata), unspecified and multicast addresses on any scheme', () => {
    for (const address of ['169.254.169.254', '0.0.0.0', '224.0.0.1', 'fe80::1', '::', '::ffff:169.254.169.254']) {
      expect(refusalOf(address, 'https:'), address).toBe('link-local, unspecified or multicast');
    }
  });

  it('sends plain http:// only to loopback, https:// to public and private networks', () => {
    expect(refusalOf('127.0.0.1', 'http:')).toBeNull();
    expect(refusalOf('::1', 'http:')).toBeNull();
    expect(refusalOf('10.1.2.3', 'http:')).toBe('http:// is only for this machine; use https://');
    expect(refusalOf('93.184.216.34', 'http:')).not.toBeNull();
    expect(refusalOf('10.1.2.3', 'https:')).toBeNull();
    expect(refusalOf('93.184.216.34', 'https:')).toBeNull();
  });

  it('refuses an address written in the URL before connecting, and a name that resolves to a refused one', async () => {
    await expect(postWebhook({ url: 'https://169.254.169.254/latest/meta-data', headers: {}, body: '{}', timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ADDRESS_REFUSED' });
    await expect(postWebhook({ url: 'http://[fe80::1]:8080/', headers: {}, body: '{}', timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ADDRESS_REFUSED' });
    // 'localhost' resolves to loopback: allowed for http. A real receiver answers.
    const receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as { port: number }).port;
      expect(await postWebhook({ url: `http://localhost:${port}/hook`, headers: {}, body: '{}', timeoutMs: 5000 })).toBe(204);
    } finally {
      receiver.close();
    }
  });

  it('gives up after the timeout when the receiver never answers', async () => {
    const receiver = createServer(() => undefined);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as { port: number }).port;
      await expect(postWebhook({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 200 })).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
