import { createServer, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { addressPolicy } from './address-policy.ts';
import { postWebhook, type HostResolver, type RequestOpener } from './transport.ts';

const DEFAULT = addressPolicy([]);

/** A resolver stand-in: every name resolves to `addresses`, whatever the real DNS says. */
function resolvingTo(...addresses: string[]): HostResolver {
  return async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

const INTERNAL = [
  '127.0.0.1', '127.8.9.10', '::1',
  '10.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.1.1',
  '100.64.0.1', '100.127.255.254',
  'fd00::1', 'fc00::1',
  '169.254.169.254', 'fe80::1',
  '0.0.0.0', '::',
  '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:192.168.1.1', '::ffff:169.254.169.254', '::ffff:100.64.0.1', '::ffff:0.0.0.0',
  '64:ff9b::10.0.0.1', '::10.0.0.1',
  '224.0.0.1', '255.255.255.255', 'ff02::1',
];

describe('the address policy', () => {
  it('refuses loopback, private, CGNAT, unique-local, link-local, unspecified, multicast and their IPv4-mapped forms, on either scheme', () => {
    for (const address of INTERNAL) {
      expect(DEFAULT.refusalOf(address, 'https:'), address).not.toBeNull();
      expect(DEFAULT.refusalOf(address, 'http:'), address).not.toBeNull();
    }
  });

  it('allows public addresses over https:// only', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34', '100.128.0.1', '172.32.0.1']) {
      expect(DEFAULT.refusalOf(address, 'https:'), address).toBeNull();
      expect(DEFAULT.refusalOf(address, 'http:'), address).not.toBeNull();
    }
  });

  it('WEBHOOK_ALLOWED_NETWORKS opens just the listed networks, http:// included; unspecified and multicast stay closed', () => {
    const policy = addressPolicy(['127.0.0.1/32', '::1/128', '10.20.0.0/16']);
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.20.3.4']) {
      expect(policy.refusalOf(address, 'http:'), address).toBeNull();
      expect(policy.refusalOf(address, 'https:'), address).toBeNull();
    }
    for (const address of ['127.0.0.2', '10.21.0.1', '192.168.1.1', 'fd00::1', '169.254.169.254']) {
      expect(policy.refusalOf(address, 'https:'), address).not.toBeNull();
    }
    expect(addressPolicy(['0.0.0.0/0']).refusalOf('0.0.0.0', 'https:')).toBe('unspecified');
    expect(addressPolicy(['0.0.0.0/0']).refusalOf('224.0.0.1', 'https:')).toBe('multicast');
  });
});

describe('a delivery to a refused address', () => {
  it('opens no connection when the name resolves to an internal address (10.0.0.1, 192.168.1.1, fd00::1, ::ffff:10.0.0.1 ...)', async () => {
    for (const address of ['10.0.0.1', '192.168.1.1', 'fd00::1', '::ffff:10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', 'fe80::1', '0.0.0.0', '::']) {
      const open = vi.fn<RequestOpener>(async () => 204);
      await expect(
        postWebhook({ url: 'https://hooks.example.com/sealdrop', headers: {}, body: '{}', timeoutMs: 1000 }, { policy: DEFAULT, resolve: resolvingTo(address), open }),
        address,
      ).rejects.toMatchObject({ code: 'ADDRESS_REFUSED', address });
      expect(open, address).not.toHaveBeenCalled();
    }
  });

  it('opens no connection when any address of the name is internal, or for an address written in the URL', async () => {
    const open = vi.fn<RequestOpener>(async () => 204);
    const resolve = vi.fn(resolvingTo('93.184.216.34', '10.0.0.1'));
    await expect(postWebhook({ url: 'https://mixed.example.com/', headers: {}, body: '{}', timeoutMs: 1000 }, { policy: DEFAULT, resolve, open })).rejects.toMatchObject({ code: 'ADDRESS_REFUSED' });
    for (const url of ['https://10.0.0.1/', 'https://[::ffff:a00:1]/', 'https://[fd00::1]:8443/', 'http://127.0.0.1:9/', 'https://0x7f.1/', 'https://2130706433/']) {
      await expect(postWebhook({ url, headers: {}, body: '{}', timeoutMs: 1000 }, { policy: DEFAULT, resolve: resolvingTo('93.184.216.34'), open }), url).rejects.toMatchObject({ code: 'ADDRESS_REFUSED' });
    }
    expect(open).not.toHaveBeenCalled();
    // Only the name was looked up; an address in the URL is not.
    expect(resolve).toHaveBeenCalledTimes(1);
  });
});

describe('a delivery to an allowed address', () => {
  async function receiver(status: number): Promise<{ port: number; hosts: Array<string | undefined>; close(): void }> {
    const hosts: Array<string | undefined> = [];
    const server = createServer((request, response) => {
      hosts.push((request.headers as IncomingHttpHeaders).host);
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as { port: number }).port, hosts, close: () => server.close() };
  }

  it('connects to the very address that was checked, with the name in the Host header, and looks the name up once', async () => {
    const target = await receiver(204);
    try {
      const resolve = vi.fn(resolvingTo('127.0.0.1'));
      const policy = addressPolicy(['127.0.0.1/32']);
      // receiver.invalid has no DNS entry: the request can only have reached the address the stand-in gave.
      expect(await postWebhook({ url: `http://receiver.invalid:${target.port}/hook`, headers: {}, body: '{}', timeoutMs: 5000 }, { policy, resolve })).toBe(204);
      expect(target.hosts).toEqual([`receiver.invalid:${target.port}`]);
      expect(resolve).toHaveBeenCalledTimes(1);
    } finally {
      target.close();
    }
  });

  it('gives up after the timeout when the receiver never answers', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const policy = addressPolicy(['127.0.0.1/32']);
      await expect(postWebhook({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 200 }, { policy })).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
