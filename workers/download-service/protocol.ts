/**
 * The messages between the page and the service worker for one streaming download. The page
 * registers a plan (what to fetch and how to name it) with `controller.postMessage(plan, [keyPort,
 * statusPort])`; the crypto worker posts the file keys into keyPort; the service worker answers on
 * statusPort. The browser's download manager then fetches DOWNLOAD_PATH_PREFIX/{id}/{name}, which
 * the service worker serves as a decrypted stream. Nothing secret is in a plan: key ids only name
 * keys, the keys themselves arrive on keyPort. A failure crosses as a DownloadError's wire form
 * (../wire-errors.ts), which the page turns back into the DownloadError with fromWireError.
 */
import type { WireDownloadError } from '../wire-errors.ts';
import type { DownloadServiceTexts } from './messages.ts';

export const DOWNLOAD_PATH_PREFIX = '/downloads/';
export const PLAN_MESSAGE = 'sealdrop-download:plan';
export const KEEPALIVE_MESSAGE = 'sealdrop-download:keepalive';
export const CLAIM_MESSAGE = 'sealdrop-download:claim';

/** One file to fetch, decrypt and write (or put into the ZIP under `name`). */
export interface PlanEntry {
  readonly url: string;
  readonly name: string;
  readonly plainSize: number;
  readonly iv: string;
  /** Id of the file key as the crypto worker sends it on the key port. */
  readonly keyId: string;
  /** Response headers the ciphertext must carry (spec section 5: the folder route needs x-encrypted-key). */
  readonly requiredHeaders: readonly string[];
}

export interface DownloadPlan {
  readonly type: typeof PLAN_MESSAGE;
  readonly id: string;
  readonly kind: 'file' | 'zip';
  /** What the download manager saves: the file's name, or the ZIP's name. */
  readonly fileName: string;
  readonly entries: readonly PlanEntry[];
  /**
   * ZIP only: a file that fails before its first byte is written (HTTP error, header, first record)
   * is skipped and reported instead of failing the archive. The archive's length is then unknown,
   * so no Content-Length is sent.
   */
  readonly skipFailedFiles: boolean;
  /** The worker's own answers, worded by the page in the language it shows. */
  readonly texts: DownloadServiceTexts;
}

export interface KeepaliveMessage {
  readonly type: typeof KEEPALIVE_MESSAGE;
}

/**
 * Page -> service worker, with a port: take this page over now. The worker claims the open pages
 * as it activates, but claim() passes over a page still loading at that moment, and a page loaded
 * by a hard reload; such a page asks, and the worker answers on the port once claim() settled.
 */
export interface ClaimMessage {
  readonly type: typeof CLAIM_MESSAGE;
}

/** Service worker -> page, on the claim message's port. */
export interface ClaimReply {
  readonly claimed: boolean;
}

export function isClaimMessage(data: unknown): data is ClaimMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === CLAIM_MESSAGE;
}

/** Service worker -> page, on the status port. */
export type StatusMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'started'; readonly totalBytes: number | null }
  | { readonly type: 'progress'; readonly bytes: number }
  | { readonly type: 'file-failed'; readonly name: string; readonly failure: WireDownloadError }
  | { readonly type: 'done'; readonly bytes: number }
  | { readonly type: 'error'; readonly failure: WireDownloadError };

/** Page -> service worker, on the status port. */
export type ControlMessage = { readonly type: 'abort' };

export function isControlMessage(value: unknown): value is ControlMessage {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'abort';
}

/** The URL the download manager fetches; the name is only for the address bar and logs. */
export function downloadPath(id: string, fileName: string): string {
  return `${DOWNLOAD_PATH_PREFIX}${encodeURIComponent(id)}/${encodeURIComponent(fileName)}`;
}

/** The plan id of a download URL's path, or null when the path is not a download. */
export function downloadIdOfPath(pathname: string): string | null {
  if (!pathname.startsWith(DOWNLOAD_PATH_PREFIX)) return null;
  const [id] = pathname.slice(DOWNLOAD_PATH_PREFIX.length).split('/');
  if (!id) return null;
  try {
    return decodeURIComponent(id);
  } catch {
    return null;
  }
}

export function isDownloadPlan(value: unknown): value is DownloadPlan {
  if (typeof value !== 'object' || value === null) return false;
  const plan = value as Partial<DownloadPlan>;
  return (
    plan.type === PLAN_MESSAGE &&
    typeof plan.id === 'string' &&
    (plan.kind === 'file' || plan.kind === 'zip') &&
    typeof plan.fileName === 'string' &&
    Array.isArray(plan.entries) &&
    plan.entries.every(isPlanEntry)
  );
}

export function isPlanEntry(value: unknown): value is PlanEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<PlanEntry>;
  return (
    typeof entry.url === 'string' &&
    typeof entry.name === 'string' &&
    typeof entry.plainSize === 'number' &&
    Number.isSafeInteger(entry.plainSize) &&
    entry.plainSize >= 0 &&
    typeof entry.iv === 'string' &&
    typeof entry.keyId === 'string' &&
    Array.isArray(entry.requiredHeaders)
  );
}
