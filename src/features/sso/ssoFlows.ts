// What an account without a password does with its private key (docs/api.md "Single sign-on"),
// step by step; the keys stay in the crypto workers, this thread holds handles only:
//
//   first sign-in: a device key for this browser, then a new key pair whose private key comes back
//   wrapped twice (this device, the recovery key) -> POST key-pair; the recovery key is shown once;
//   later sign-ins: this browser's device copy -> unlocked, without anything typed;
//   a new browser: a passkey with a copy of the key (PRF), ask an unlocked device (both show the same
//   five words; the person compares them and approves there), or type the recovery key; whichever
//   way, this browser is then trusted too;
//   while the organisation recovery policy is on, every unlock here also makes sure the server holds
//   the key sealed to the organisation key (docs/api.md "Organisation recovery").
import type { ApprovalRequestHandle, CryptoPool, PrivateKeyHandle, SsoKeySource } from '../../../workers/index.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { orgRecoveryApi } from '../../api/orgRecoveryApi.ts';
import { ssoApi } from '../../api/ssoApi.ts';
import type { User } from '../../api/types.ts';
import type { AppDispatch } from '../../app/store.ts';
import { SSO_TEXTS } from '../../lib/userTexts.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { sessionConfirmed } from '../auth/index.ts';
import { adoptPrivateKey } from '../keys/index.ts';
import { unlockWithPasskey } from '../passkeys/index.ts';
import { forgetDevice, readDevice, saveDevice, thisDeviceName, type StoredDevice } from './deviceStore.ts';

export type SsoPool = Pick<
  CryptoPool,
  | 'createSsoKeyPair'
  | 'generateDeviceKey'
  | 'unlockPrivateKeyWithDevice'
  | 'unlockPrivateKeyWithRecoveryKey'
  | 'createApprovalRequest'
  | 'approvalPhrase'
  | 'approveDeviceRequest'
  | 'unlockPrivateKeyWithApproval'
  | 'wrapPrivateKeyForDevice'
  | 'wrapPrivateKeyForOrgRecovery'
  | 'unlockPrivateKeyWithPasskey'
  | 'releaseKey'
>;

export interface SsoDependencies {
  readonly dispatch: AppDispatch;
  readonly pool: () => SsoPool;
}

/** How often a waiting device asks whether it was approved. */
export const APPROVAL_POLL_MS = 2_000;

function accountKey(user: User): string {
  if (!user.public_key_spki) throw new Error('the account has no key pair yet');
  return user.public_key_spki;
}

/**
 * While the organisation recovery policy is on, the key just opened (from `source`) is also sealed
 * to the organisation key, unless the server holds that copy for this key pair and organisation
 * key already. Best effort: a failure leaves the person unlocked, and the next unlock tries again;
 * the profile's Devices section shows whether the copy is stored.
 */
export async function depositForOrganisation({ dispatch, pool }: SsoDependencies, user: User, source: SsoKeySource): Promise<void> {
  try {
    const state = await dispatch(orgRecoveryApi.endpoints.memberRecoveryState.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap();
    if (!state.key || state.stored) return;
    const copy = await pool().wrapPrivateKeyForOrgRecovery(source, state.key.public_key_spki, user.id);
    await dispatch(orgRecoveryApi.endpoints.storeMemberCopy.initiate({ key_id: state.key.id, wrapped_for_spki: source.expectedSpki, copy })).unwrap();
  } catch (error) {
    console.warn('the copy of the key for the organisation was not stored; the next unlock tries again', error);
  }
}

/** The account's first key pair; the recovery key to show once. */
export async function createKeys({ dispatch, pool }: SsoDependencies, user: User): Promise<string> {
  const keyPool = pool();
  const deviceKey = await keyPool.generateDeviceKey();
  const deviceId = crypto.randomUUID();
  const made = await keyPool.createSsoKeyPair(user.username, deviceKey, deviceId);
  try {
    const updated = await dispatch(
      ssoApi.endpoints.createSsoKeyPair.initiate({
        public_key_spki: made.publicKeySpki,
        recovery_copy: made.recoveryCopy,
        device: { id: deviceId, name: thisDeviceName(), copy: made.deviceCopy },
      }),
    ).unwrap();
    await saveDevice(user.id, { id: deviceId, key: deviceKey });
    dispatch(sessionConfirmed(updated));
    dispatch(adoptPrivateKey(keyPool, made.privateKey));
    await depositForOrganisation({ dispatch, pool }, updated, { kind: 'device', copy: made.deviceCopy, deviceKey, deviceId, expectedSpki: made.publicKeySpki });
    return made.recoveryKey;
  } catch (error) {
    await keyPool.releaseKey(made.privateKey);
    throw error;
  }
}

/** This browser's copy: unlocked, or 'untrusted' when this browser has none that works (any more). */
export async function unlockWithThisDevice({ dispatch, pool }: SsoDependencies, user: User): Promise<'unlocked' | 'untrusted'> {
  const device = await readDevice(user.id);
  if (!device) return 'untrusted';
  let copy: string;
  try {
    copy = (await dispatch(ssoApi.endpoints.deviceCopy.initiate({ id: device.id })).unwrap()).copy;
  } catch (error) {
    // Removed in the profile (here or on another device), or made for an old key pair.
    if (answeredWith(describeApiError(error), 'DEVICE_NOT_FOUND')) {
      await forgetDevice(user.id);
      return 'untrusted';
    }
    throw error;
  }
  const keyPool = pool();
  const handle = await keyPool.unlockPrivateKeyWithDevice(copy, device.key, device.id, accountKey(user));
  dispatch(adoptPrivateKey(keyPool, handle));
  await depositForOrganisation({ dispatch, pool }, user, { kind: 'device', copy, deviceKey: device.key, deviceId: device.id, expectedSpki: accountKey(user) });
  return 'unlocked';
}

/** After unlocking by approval or recovery key: this browser gets a copy of its own. */
async function trustThisDevice({ dispatch, pool }: SsoDependencies, user: User, source: SsoKeySource): Promise<void> {
  const keyPool = pool();
  const device: StoredDevice = { id: crypto.randomUUID(), key: await keyPool.generateDeviceKey() };
  const copy = await keyPool.wrapPrivateKeyForDevice(source, device.key, device.id);
  await dispatch(ssoApi.endpoints.trustDevice.initiate({ id: device.id, name: thisDeviceName(), copy, wrapped_for_spki: accountKey(user) })).unwrap();
  await saveDevice(user.id, device);
}

/**
 * A passkey with a copy of the key (docs/api.md "Single sign-on"): 'unlocked' (and this browser is
 * then trusted, its copy made from the key just opened), or why this passkey cannot unlock.
 */
export async function unlockWithAccountPasskey(deps: SsoDependencies, user: User): Promise<'unlocked' | 'no-prf' | 'no-copy'> {
  const expectedSpki = accountKey(user);
  const outcome = await unlockWithPasskey(deps, expectedSpki);
  if (outcome.kind !== 'unlocked') return outcome.kind;
  const source: SsoKeySource = { kind: 'session', privateKey: outcome.privateKey, expectedSpki };
  await trustThisDevice(deps, user, source);
  await depositForOrganisation(deps, user, source);
  return 'unlocked';
}

export async function unlockWithRecoveryKey(deps: SsoDependencies, user: User, recoveryKey: string): Promise<void> {
  const { copy } = await deps.dispatch(ssoApi.endpoints.recoveryCopy.initiate()).unwrap();
  const keyPool = deps.pool();
  const expectedSpki = accountKey(user);
  const handle: PrivateKeyHandle = await keyPool.unlockPrivateKeyWithRecoveryKey(copy, recoveryKey, user.username, expectedSpki);
  deps.dispatch(adoptPrivateKey(keyPool, handle));
  const source: SsoKeySource = { kind: 'recovery', copy, recoveryKey, username: user.username, expectedSpki };
  await trustThisDevice(deps, user, source);
  await depositForOrganisation(deps, user, source);
}

export interface PendingRequest {
  readonly id: string;
  readonly phrase: string;
  readonly requestKey: ApprovalRequestHandle;
}

/** Asks the account's unlocked devices for the key; the phrase is what both devices show. */
export async function askForApproval({ dispatch, pool }: SsoDependencies): Promise<PendingRequest> {
  const request = await pool().createApprovalRequest();
  const created = await dispatch(ssoApi.endpoints.requestApproval.initiate({ requester_spki: request.publicKeySpki, name: thisDeviceName() })).unwrap();
  return { id: created.id, phrase: request.phrase, requestKey: request.requestKey };
}

/**
 * Polls in a row that may fail (the network, a 5xx, the time limit of each request) before the wait
 * gives up: about 30 s of trouble; the request itself lives 10 minutes on the server.
 */
export const APPROVAL_POLL_FAILURES_ALLOWED = 15;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Trouble worth asking again through: the answer may be different in a moment. */
function passing(error: unknown): boolean {
  const described = describeApiError(error);
  return described.code === 'network' || described.code === 'server';
}

/**
 * Waits until another device approved `request` (polling), then opens the key, trusts this
 * browser and withdraws the request. Rejects with APPROVAL_NOT_FOUND when it expired or was
 * declined, with the last error after APPROVAL_POLL_FAILURES_ALLOWED failed polls in a row, and
 * with the signal's reason when `signal` ends the wait. Whenever it does not end approved, the
 * request is withdrawn (so it does not count against the account's open requests) and its key
 * pair released.
 */
export async function waitForApproval(deps: SsoDependencies, user: User, request: PendingRequest, signal: AbortSignal, pollMs = APPROVAL_POLL_MS): Promise<void> {
  let failuresInARow = 0;
  try {
    for (;;) {
      signal.throwIfAborted();
      let status;
      try {
        status = await deps.dispatch(ssoApi.endpoints.approvalStatus.initiate({ id: request.id })).unwrap();
        failuresInARow = 0;
      } catch (error) {
        if (!passing(error) || ++failuresInARow >= APPROVAL_POLL_FAILURES_ALLOWED) throw error;
        await pause(pollMs, signal);
        continue;
      }
      if (status.status === 'approved') {
        const keyPool = deps.pool();
        const expectedSpki = accountKey(user);
        const handle = await keyPool.unlockPrivateKeyWithApproval(request.requestKey, request.id, status.approver_spki, status.copy, expectedSpki);
        deps.dispatch(adoptPrivateKey(keyPool, handle));
        const source: SsoKeySource = { kind: 'approval', requestKey: request.requestKey, requestId: request.id, approverSpki: status.approver_spki, copy: status.copy, expectedSpki };
        await trustThisDevice(deps, user, source);
        await depositForOrganisation(deps, user, source);
        await deps.dispatch(ssoApi.endpoints.removeApproval.initiate({ id: request.id })).unwrap().catch(() => undefined);
        void keyPool.releaseKey(request.requestKey).catch(() => undefined);
        return;
      }
      await pause(pollMs, signal);
    }
  } catch (error) {
    // Best effort and not awaited: leaving /sso must not wait on the network.
    void deps.dispatch(ssoApi.endpoints.removeApproval.initiate({ id: request.id })).unwrap().catch(() => undefined);
    void deps.pool().releaseKey(request.requestKey).catch(() => undefined);
    throw error;
  }
}

/** Only a trusted browser holds a copy of the key to give; the section offers approving only there. */
export class NotTrustedHereError extends UserFacingError<'NOT_TRUSTED_HERE'> {
  constructor() {
    super('NOT_TRUSTED_HERE', SSO_TEXTS.approveNeedsTrust);
  }
}

/** On an unlocked, trusted device: gives the key to the request (after the person compared the words). */
export async function approveRequest({ dispatch, pool }: SsoDependencies, user: User, request: { id: string; requester_spki: string }): Promise<void> {
  const device = await readDevice(user.id);
  if (!device) throw new NotTrustedHereError();
  const { copy } = await dispatch(ssoApi.endpoints.deviceCopy.initiate({ id: device.id })).unwrap();
  const source: SsoKeySource = { kind: 'device', copy, deviceKey: device.key, deviceId: device.id, expectedSpki: accountKey(user) };
  const answer = await pool().approveDeviceRequest(source, request.id, request.requester_spki);
  await dispatch(ssoApi.endpoints.approveDevice.initiate({ id: request.id, approver_spki: answer.approverPublicKeySpki, copy: answer.copy })).unwrap();
}

/** Whether this browser holds a trust record for the account (the approve button needs one). */
export async function isTrustedHere(user: User): Promise<boolean> {
  return (await readDevice(user.id)) !== null;
}

export { readDevice };
