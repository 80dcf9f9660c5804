// Asks a service worker which build it runs (workers/build-identity): the one controlling this
// page for the About page, the waiting one for the update prompt. The answer has a time limit: a
// worker that never answers ends in an error the screen shows, not an endless "Reading...".
import { useEffect, useState } from 'react';
import { BUILD_IDENTITY_MESSAGE, isBuildIdentityReply, settleWithin, type BuildIdentity, type BuildIdentityRequest } from '../../workers/index.ts';

export const BUILD_IDENTITY_TIMEOUT_MS = 15_000;

/** NO_SERVICE_WORKER, TIMED_OUT, MALFORMED_REPLY here; NO_BUILD_DIGESTS, MALFORMED_BUILD_DIGESTS, BUILD_DIGEST_MISMATCH from the worker. */
export type BuildIdentityErrorCode = string;

export class BuildIdentityError extends Error {
  override readonly name = 'BuildIdentityError';
  constructor(readonly code: BuildIdentityErrorCode) {
    super(`The build digest is not available (${code}).`);
  }
}

/** The identity `worker` reports for its own build. */
export function requestBuildIdentity(worker: ServiceWorker, timeoutMs = BUILD_IDENTITY_TIMEOUT_MS): Promise<BuildIdentity> {
  const channel = new MessageChannel();
  const answer = new Promise<BuildIdentity>((resolve, reject) => {
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      channel.port1.close();
      const reply = event.data;
      if (!isBuildIdentityReply(reply)) reject(new BuildIdentityError('MALFORMED_REPLY'));
      else if (reply.ok) resolve(reply.identity);
      else reject(new BuildIdentityError(reply.code));
    };
  });
  const request: BuildIdentityRequest = { type: BUILD_IDENTITY_MESSAGE };
  worker.postMessage(request, [channel.port2]);
  return settleWithin(answer, timeoutMs, () => {
    channel.port1.close();
    return new BuildIdentityError('TIMED_OUT');
  });
}

export type BuildIdentityState = { status: 'loading' } | { status: 'ready'; identity: BuildIdentity } | { status: 'failed'; code: BuildIdentityErrorCode };

/** The build identity of `worker` (null: no worker, e.g. a development server or a first visit not yet controlled). */
export function useBuildIdentity(worker: ServiceWorker | null, request = requestBuildIdentity): BuildIdentityState {
  const [state, setState] = useState<{ worker: ServiceWorker | null; value: BuildIdentityState }>({ worker: null, value: { status: 'loading' } });
  useEffect(() => {
    if (!worker) return;
    let current = true;
    request(worker).then(
      (identity) => current && setState({ worker, value: { status: 'ready', identity } }),
      (error: unknown) => current && setState({ worker, value: { status: 'failed', code: error instanceof BuildIdentityError ? error.code : 'UNAVAILABLE' } }),
    );
    return () => {
      current = false;
    };
  }, [worker, request]);
  if (!worker) return { status: 'failed', code: 'NO_SERVICE_WORKER' };
  return state.worker === worker ? state.value : { status: 'loading' };
}
