/**
 * A member's epoch keys of one team folder, outside the browser: the whole signed chain checked as
 * a member's browser checks it (verifyChain), then each of the member's envelopes opened and its key
 * compared with the epoch key the verified list names (openEnvelope). Shared by the command-line
 * fetch (a signed-in member) and the offline recover command (a member's key backup and an export).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { OfflineCryptoError } from './errors.ts';
import { keyHash, openEnvelope, verifyChain, type ChainEntry, type VerifiedChain } from './team-manifest.ts';

export interface MemberEnvelope {
  epoch: number;
  envelope: string;
}

export interface OpenedEpochKeys {
  chain: VerifiedChain;
  /** epoch -> that epoch's private key. */
  epochKeys: Map<number, KeyObject>;
  /** Envelopes that did not open, each with why; files sealed to those epochs cannot be opened. */
  unopened: Array<{ epoch: number; error: OfflineCryptoError }>;
}

/** base64 SPKI DER of a private key's public half (what the chain's `key` hashes are taken over). */
export function publicKeySpkiOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
}

/**
 * Throws TeamManifestError when the chain breaks a rule or the viewer is not a member of its last
 * version with this key; an envelope that does not open is listed in `unopened`, not thrown.
 */
export function openEpochKeys(
  folderId: number,
  chainEntries: readonly ChainEntry[],
  envelopes: readonly MemberEnvelope[],
  viewer: { userId: number; privateKey: KeyObject },
): OpenedEpochKeys {
  const viewerHash = keyHash(publicKeySpkiOf(viewer.privateKey));
  const chain = verifyChain(folderId, chainEntries, { userId: viewer.userId, keyHash: viewerHash });
  const epochKeys = new Map<number, KeyObject>();
  const unopened: OpenedEpochKeys['unopened'] = [];
  for (const item of envelopes) {
    const epoch = chain.head.epochs.find((entry) => entry.epoch === item.epoch);
    if (!epoch) continue;
    try {
      epochKeys.set(item.epoch, openEnvelope(viewer.privateKey, { folderId, epoch: item.epoch, memberKeyHash: viewerHash, epochKeyHash: epoch.key, envelope: item.envelope }));
    } catch (error) {
      if (!(error instanceof OfflineCryptoError)) throw error;
      unopened.push({ epoch: item.epoch, error });
    }
  }
  return { chain, epochKeys, unopened };
}
