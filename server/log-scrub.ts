// Scrubbing of log lines: credentials and bearer capabilities never reach the log, at any level
// (architecture.md, "Trust boundaries"). Pure functions; logging.ts applies them to every line.
//
// Two rules, because secrets arrive in two ways:
// - By name: a value under a key that names a credential (cookie, set-cookie, authorization,
//   x-csrftoken, *password*, *secret*, *token*, verification/TOTP codes...) is replaced by
//   "[redacted]", wherever it sits in the object (headers logged by a plugin, a debug object).
// - By shape, in any string (URLs, messages, error messages and stacks): the path segment after
//   an "upload" or "download" segment is a link token (the API's /api/upload/{t}, /api/download/{t}
//   and the app's pages /upload/{t}, /download/{t}), in whatever spelling reached the server
//   (percent-encoded letters, doubled or encoded slashes); and any run of 43 base64url characters
//   is a token we issued (newToken). Both become "tok:" + the first 8 hex digits of the token's
//   SHA-256: enough to tell requests for the same link apart and to find a known token's lines
//   (sha256 of it), useless for recovering it. Credentials in URLs (scheme://user:pass@) are cut.
import { sha256Hex } from './auth/tokens.ts';

export const REDACTED = '[redacted]';

/** The log's name for a token: never the token, but the same for the same token. */
export function tokenId(token: string): string {
  return `tok:${sha256Hex(token).slice(0, 8)}`;
}

// Keys compared lower-cased with "-" and "_" removed.
const SECRET_KEYS = new Set(['cookie', 'setcookie', 'authorization', 'proxyauthorization', 'xcsrftoken', 'otp', 'totp']);
// 'signature' and 'accesskey': an S3 client's errors carry the request's signature and key id
// (SignatureProvided, AWSAccessKeyId, StringToSign); the secret key itself is caught by 'secret'.
const SECRET_KEY_PARTS = ['password', 'passwd', 'secret', 'token', 'cookie', 'credential', 'signature', 'accesskey', 'stringtosign'];
// Error objects carry a `code` too ("ENOENT", "FST_ERR_VALIDATION", "CSRF_FAILED"): those are kept;
// any other `code` (a TOTP or verification code, as text or number) is not.
const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;

function isSecretKey(key: string, value: unknown): boolean {
  const name = key.toLowerCase().replace(/[-_]/g, '');
  if (SECRET_KEYS.has(name) || SECRET_KEY_PARTS.some((part) => name.includes(part))) return true;
  if (name === 'code') return !(typeof value === 'string' && ERROR_CODE.test(value));
  // verification_code, totpCode, otpcode; not statusCode or errorCode.
  return name.endsWith('code') && /(verification|totp|otp|auth)code$/.test(name);
}

const PATH_SEPARATOR = /^(?:\/|\\|%2f|%5c)$/i;
// Splits text into pieces between path separators and the characters that end a URL path.
const DELIMITER = /(%2f|%5c|[/\\?#&=\s"'<>`;,])/i;
const LINK_SEGMENTS = new Set(['upload', 'download']);
// The admin's /api/download/links/... routes: "links" is a route, not a token.
const NOT_TOKENS = new Set(['links']);
const TOKEN_SHAPE = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

function decoded(piece: string): string {
  try {
    return decodeURIComponent(piece);
  } catch {
    return piece;
  }
}

/** Replaces the segment after each "upload"/"download" path segment with its token id. */
function scrubLinkSegments(text: string): string {
  if (!/load/i.test(text) && !/%/.test(text)) return text;
  const parts = text.split(DELIMITER); // [piece, delimiter, piece, delimiter, ..., piece]
  let changed = false;
  for (let i = 0; i < parts.length; i += 2) {
    if (!LINK_SEGMENTS.has(decoded(parts[i]!).toLowerCase())) continue;
    if (i > 0 && !PATH_SEPARATOR.test(parts[i - 1]!)) continue;
    // The next non-empty piece reached through path separators only.
    let j = i + 2;
    while (j < parts.length && PATH_SEPARATOR.test(parts[j - 1]!) && parts[j] === '') j += 2;
    if (j >= parts.length || !PATH_SEPARATOR.test(parts[j - 1]!)) continue;
    const token = decoded(parts[j]!);
    if (token === '' || NOT_TOKENS.has(token) || token.startsWith('tok:')) continue;
    parts[j] = tokenId(token);
    changed = true;
  }
  return changed ? parts.join('') : text;
}

/** A string with link tokens, token-shaped runs and URL credentials replaced. */
export function scrubText(text: string): string {
  return scrubLinkSegments(text)
    .replace(TOKEN_SHAPE, (token) => tokenId(token))
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`);
}

/** A copy of a JSON value with secret-named values redacted and every string scrubbed. */
export function scrubValue(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map(scrubValue);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(result, scrubText(key), {
      value: item !== null && item !== undefined && isSecretKey(key, item) ? REDACTED : scrubValue(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/** One serialised log line (JSON, newline-terminated), scrubbed; text that is not JSON is scrubbed as text. */
export function scrubLogLine(line: string): string {
  const body = line.endsWith('\n') ? line.slice(0, -1) : line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return scrubText(line);
  }
  return `${JSON.stringify(scrubValue(parsed))}${line.endsWith('\n') ? '\n' : ''}`;
}
