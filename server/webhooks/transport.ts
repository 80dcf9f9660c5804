// One POST of a webhook delivery. The receiver's name is resolved once, every address it resolves
// to is checked against the address policy (address-policy.ts), and the connection goes to the
// checked address itself: the request's own lookup answers with it, so no second lookup can hand
// the socket another address (a name that resolves to a public address when checked and to an
// internal one a moment later gains nothing). No connection pool either: each delivery opens its
// own socket to the address checked for it. node:http rather than fetch: fetch offers no hook into
// its address lookup without another HTTP client package.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.ts';
import { codedError } from '../../contract/coded-error.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the system resolver by default; a stand-in in tests). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

export class WebhookAddressRefusedError extends codedError('ADDRESS_REFUSED') {
  constructor(
    readonly address: string,
    readonly why: string,
  ) {
    super(`Refused address ${address} (${why})`);
  }
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Sends `post` to `url`, connecting to `address` only; resolves with the status code. */
export type RequestOpener = (url: URL, address: ResolvedAddress, post: WebhookPost) => Promise<number>;

export interface TransportDeps {
  policy: AddressPolicy;
  resolve?: HostResolver;
  /** The connection itself (tests pass a spy to see that none is opened for a refused address). */
  open?: RequestOpener;
}

/**
 * The address a delivery to `url` connects to: the address written in the URL, or the first one
 * its name resolves to. Rejects with WebhookAddressRefusedError when any of them is refused (a
 * name that also points inward is not a public receiver).
 */
export async function checkedAddress(url: URL, deps: Pick<TransportDeps, 'policy' | 'resolve'>): Promise<ResolvedAddress> {
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(literal);
  const addresses: ResolvedAddress[] = family === 0 ? await (deps.resolve ?? systemResolver)(url.hostname) : [{ address: literal, family: family === 6 ? 6 : 4 }];
  if (addresses.length === 0) throw new WebhookAddressRefusedError(url.hostname, 'no address');
  for (const entry of addresses) {
    const why = deps.policy.refusalOf(entry.address, url.protocol);
    if (why !== null) throw new WebhookAddressRefusedError(entry.address, why);
  }
  return addresses[0]!;
}

/** POSTs and resolves with the receiver's status code (redirects are not followed); rejects on any network failure or refusal. */
export async function postWebhook(post: WebhookPost, deps: TransportDeps): Promise<number> {
  const url = new URL(post.url);
  const address = await checkedAddress(url, deps);
  return (deps.open ?? openRequest)(url, address, post);
}

const openRequest: RequestOpener = (url, address, post) => {
  const client = url.protocol === 'https:' ? https : http;
  // The only answer this request's lookup gives: the address that was checked.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        lookup: pinned,
        agent: false,
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
};
