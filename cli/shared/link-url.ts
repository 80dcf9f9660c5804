// The two kinds of link the commands take: an upload link `{origin}/upload/{token}` and a download
// link `{origin}/download/{token}#{keys}`. Only the origin and the token are sent to the server;
// the fragment (a download link's keys) never is. A plain http:// link is taken only to this
// machine (loopback), or with --insecure-http: everything the commands send (link passwords, their
// verifiers, e-mail codes) and the ciphertext they decrypt would otherwise cross the network in clear.
import { CliUsageError, InsecureHttpError } from './errors.ts';

const TOKEN = /^[A-Za-z0-9_-]{16,100}$/;

export interface LinkAddress {
  origin: string;
  token: string;
  /** The fragment without '#', '' when there is none. */
  fragment: string;
}

export interface LinkOptions {
  /** --insecure-http: take a plain http:// link to another machine. */
  readonly insecureHttp?: boolean;
}

/**
 * The loopback spellings the URL parser leaves: localhost, 127.0.0.0/8 and [::1]. Other spellings
 * of this machine (an IPv4-mapped address, a name that resolves to 127.0.0.1) count as another
 * machine: the check never resolves a name, so it cannot be fooled by one.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function parse(text: string, kind: 'upload' | 'download', options: LinkOptions): LinkAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliUsageError(`"${text}" is not a URL: give the ${kind} link as the browser shows it ({origin}/${kind}/{token}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliUsageError(`The ${kind} link must be an http:// or https:// address.`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.insecureHttp) {
    throw new InsecureHttpError(
      `The ${kind} link is a plain http:// address of another machine: its password, codes and keys would cross the network unencrypted. ` +
        'Use its https:// address, or give --insecure-http to send them anyway.',
    );
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const at = segments.lastIndexOf(kind);
  const token = at >= 0 && at === segments.length - 2 ? segments[at + 1]! : '';
  if (!TOKEN.test(token)) throw new CliUsageError(`"${url.origin}${url.pathname}" is not ${kind === 'upload' ? 'an upload' : 'a download'} link ({origin}/${kind}/{token}).`);
  const base = segments.slice(0, at).join('/');
  return { origin: `${url.origin}${base ? `/${base}` : ''}`, token, fragment: url.hash.replace(/^#/, '') };
}

export const parseUploadLink = (text: string, options: LinkOptions = {}): LinkAddress => parse(text, 'upload', options);
export const parseDownloadLink = (text: string, options: LinkOptions = {}): LinkAddress => parse(text, 'download', options);

/**
 * A server's address for the signed-in commands (`fetch --team`): its origin (and a base path, if
 * the server is served under one). Plain http:// only to this machine unless --insecure-http: the
 * authentication secret and the session would cross the network readable.
 */
export function parseServerUrl(text: string, options: LinkOptions = {}): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliUsageError(`"${text}" is not a URL: give the server's address, e.g. https://files.example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliUsageError('The server address must be an http:// or https:// address.');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.insecureHttp) {
    throw new InsecureHttpError(
      'The server address is a plain http:// address of another machine: the sign-in and the files would cross the network unencrypted. ' +
        'Use its https:// address, or give --insecure-http to send them anyway.',
    );
  }
  const base = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${base}`;
}
