// The page asks a service worker (the one controlling it, or a new one waiting) which build it was
// installed with: a message with a MessagePort, answered once on that port.

export const BUILD_IDENTITY_MESSAGE = 'SEALDROP_BUILD_IDENTITY';

export interface BuildIdentityRequest {
  type: typeof BUILD_IDENTITY_MESSAGE;
}

/** What a service worker knows about its own build (workers/build-identity/describeBuild.ts). */
export interface BuildIdentity {
  version: string;
  /** SHA-256 over the build's file list, recomputed by the worker from the list it stored at install. */
  buildDigest: string;
  /** Files in the build's list. */
  listedFiles: number;
  /** Listed files this worker serves from its cache, each hashed and compared with the list. */
  checkedFiles: number;
  /** Cached files whose bytes differ from the list: present only when something is wrong. */
  mismatchedFiles: string[];
}

export type BuildIdentityReply = { ok: true; identity: BuildIdentity } | { ok: false; code: string };

export function isBuildIdentityRequest(data: unknown): data is BuildIdentityRequest {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === BUILD_IDENTITY_MESSAGE;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function isBuildIdentityReply(data: unknown): data is BuildIdentityReply {
  if (typeof data !== 'object' || data === null) return false;
  const reply = data as Record<string, unknown>;
  if (reply.ok === false) return typeof reply.code === 'string';
  if (reply.ok !== true || typeof reply.identity !== 'object' || reply.identity === null) return false;
  const identity = reply.identity as Record<string, unknown>;
  return (
    typeof identity.version === 'string' &&
    typeof identity.buildDigest === 'string' &&
    HEX64.test(identity.buildDigest) &&
    Number.isSafeInteger(identity.listedFiles) &&
    Number.isSafeInteger(identity.checkedFiles) &&
    Array.isArray(identity.mismatchedFiles) &&
    identity.mismatchedFiles.every((path) => typeof path === 'string')
  );
}
