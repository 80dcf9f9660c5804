// The two kinds of link the commands take: an upload link `{origin}/upload/{token}` and a download
// link `{origin}/download/{token}#{keys}`. Only the origin and the token are sent to the server;
// the fragment (a download link's keys) never is.
import { CliUsageError } from './errors.ts';

const TOKEN = /^[A-Za-z0-9_-]{16,100}$/;

export interface LinkAddress {
  origin: string;
  token: string;
  /** The fragment without '#', '' when there is none. */
  fragment: string;
}

function parse(text: string, kind: 'upload' | 'download'): LinkAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliUsageError(`"${text}" is not a URL: give the ${kind} link as the browser shows it ({origin}/${kind}/{token}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliUsageError(`The ${kind} link must be an http:// or https:// address.`);
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const at = segments.lastIndexOf(kind);
  const token = at >= 0 && at === segments.length - 2 ? segments[at + 1]! : '';
  if (!TOKEN.test(token)) throw new CliUsageError(`"${url.origin}${url.pathname}" is not ${kind === 'upload' ? 'an upload' : 'a download'} link ({origin}/${kind}/{token}).`);
  const base = segments.slice(0, at).join('/');
  return { origin: `${url.origin}${base ? `/${base}` : ''}`, token, fragment: url.hash.replace(/^#/, '') };
}

export const parseUploadLink = (text: string): LinkAddress => parse(text, 'upload');
export const parseDownloadLink = (text: string): LinkAddress => parse(text, 'download');
