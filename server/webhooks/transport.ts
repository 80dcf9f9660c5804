// One POST of a webhook delivery, to the address the receiver's name resolves to at send time.
// An admin chooses the URL, so the server must not become a way into what only it can reach: the
// resolved address is checked inside the connection's own lookup (a name that resolves to one
// address when saved and another when sent gains nothing), link-local addresses (cloud metadata
// services), unspecified and multicast ones are refused, and plain http:// goes only to loopback
// (tests and a receiver on the same machine). node:http rather than fetch: fetch offers no hook
// into its address lookup without another HTTP client package.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Never a webhook's destination, whatever the scheme. */
const REFUSED = new BlockList();
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local (cloud instance metadata)
REFUSED.addSubnet('0.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
REFUSED.addSubnet('fe80::', 10, 'ipv6');
REFUSED.addAddress('::', 'ipv6');
REFUSED.addSubnet('ff00::', 8, 'ipv6');
REFUSED.addSubnet('::ffff:169.254.0.0', 112, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

export class WebhookAddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(address: string, why: string) {
    super(`Refused address ${address} (${why})`);
  }
}

/** Why `address` may not receive a delivery sent with `protocol`, or null when it may. */
export function refusalOf(address: string, protocol: string): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (REFUSED.check(address, family)) return 'link-local, unspecified or multicast';
  if (protocol === 'http:' && !LOOPBACK.check(address, family)) return 'http:// is only for this machine; use https://';
  return null;
}

function guardedLookup(protocol: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((entry) => refusalOf(entry.address, protocol) === null);
      if (allowed.length === 0) {
        const first = addresses[0];
        return callback(new WebhookAddressRefusedError(first?.address ?? hostname, first ? refusalOf(first.address, protocol)! : 'no address'), '', 0);
      }
      if (options.all) return callback(null, allowed as never, 0);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** POSTs and resolves with the receiver's status code (redirects are not followed); rejects on any network failure. */
export function postWebhook(post: WebhookPost): Promise<number> {
  const url = new URL(post.url);
  const client = url.protocol === 'https:' ? https : http;
  // An address written in the URL is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literalRefusal = isIP(literal) === 0 ? null : refusalOf(literal, url.protocol);
  if (literalRefusal !== null) return Promise.reject(new WebhookAddressRefusedError(literal, literalRefusal));
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        lookup: guardedLookup(url.protocol),
        signal: AbortSignal.timeout(post.timeoutMs),
      },
      (response) => {
        // The body is not needed; reading it to the end frees the connection.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(post.body);
  });
}
