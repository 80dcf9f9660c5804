// What an account without a password does with its private key (docs/api.md "Single sign-on"),
// step by step; the keys stay in the crypto workers, this thread holds handles only:
//
//   first sign-in: a device key for this browser, then a new key pair whose private key comes back
//   wrapped twice (this device, the recovery key) -> POST key-pair; the recovery key is shown once;
//   later sign-ins: this browser's device copy -> unlocked, without anything typed;
//   a new browser: a passkey with a copy of the key (PRF), ask an unlocked device (both show the same
//   five words; the person compares them and approves there), or type the recovery key; whichever
//   way, this browser is then trusted too.
import type { ApprovalRequestHandle, CryptoPool, PrivateKeyHandle, SsoKeySource } from '../../../workers/index.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { ssoApi } from '../../api/ssoApi.ts';
import type { User } from '../../api/types.ts';
import type { AppDispatch } from '../../app/store.ts';
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
  await trustThisDevice(deps, user, { kind: 'session', privateKey: outcome.privateKey, expectedSpki });
  return 'unlocked';
}

export async function unlockWithRecoveryKey(deps: SsoDependencies, user: User, recoveryKey: string): Promise<void> {
  const { copy } = await deps.dispatch(ssoApi.endpoints.recoveryCopy.initiate()).unwrap();
  const keyPool = deps.pool();
  const expectedSpki = accountKey(user);
  const handle: PrivateKeyHandle = await keyPool.unlockPrivateKeyWithRecoveryKey(copy, recoveryKey, user.username, expectedSpki);
  deps.dispatch(adoptPrivateKey(keyPool, handle));
  await trustThisDevice(deps, user, { kind: 'recovery', copy, recoveryKey, username: user.username, expectedSpki });
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
 * Waits until another device approved `request` (polling), then opens the key, trusts this
 * browser and withdraws the request. Rejects with APPROVAL_NOT_FOUND when it expired or was
 * declined, and with an AbortError when `signal` ends the wait.
 */
export async function waitForApproval(deps: SsoDependencies, user: User, request: PendingRequest, signal: AbortSignal): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    const status = await deps.dispatch(ssoApi.endpoints.approvalStatus.initiate({ id: request.id })).unwrap();
    if (status.status === 'approved') {
      const keyPool = deps.pool();
      const expectedSpki = accountKey(user);
      const handle = await keyPool.unlockPrivateKeyWithApproval(request.requestKey, request.id, status.approver_spki, status.copy, expectedSpki);
      deps.dispatch(adoptPrivateKey(keyPool, handle));
      await trustThisDevice(deps, user, { kind: 'approval', requestKey: request.requestKey, requestId: request.id, approverSpki: status.approver_spki, copy: status.copy, expectedSpki });
      await deps.dispatch(ssoApi.endpoints.removeApproval.initiate({ id: request.id })).unwrap().catch(() => undefined);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, APPROVAL_POLL_MS);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      }, { once: true });
    });
  }
}

/** On an unlocked, trusted device: gives the key to the request (after the person compared the words). */
export async function approveRequest({ dispatch, pool }: SsoDependencies, user: User, request: { id: string; requester_spki: string }): Promise<void> {
  const device = await readDevice(user.id);
  if (!device) throw new Error('this browser is not a trusted device of the account');
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
