// The address verify-site checks. Plain http is refused unless it is this machine (loopback) or
// --insecure-http says so: anyone on the path could then answer with the release's files while the
// real server gives others something else, and the check would prove nothing about the server.
import { isIP } from 'node:net';
import { CliUsageError } from '../shared/errors.ts';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host);
  return false;
}

/** The site's root as an absolute URL ending in '/', under which the build's paths are fetched. */
export function parseSiteAddress(text: string, { insecureHttp = false } = {}): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliUsageError(`"${text}" is not an address (give it as https://host).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliUsageError('The address must start with https://.');
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !insecureHttp) {
    throw new CliUsageError(
      'Refusing plain http: anyone between you and the server could answer in its place, so a match would prove nothing. Use https://, or --insecure-http if you accept that.',
    );
  }
  if (url.username || url.password) throw new CliUsageError('The address must not carry a user name or password.');
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}
