/**
 * What a worker holds for one opened team folder (workers/team-operations.ts): the verified chain
 * it was opened with, the epoch private keys this account's envelopes gave (extractable, so they
 * can be sealed to a member added later; they never leave the pool's workers), and the members'
 * public keys that hash to the keys the signed list names (the only keys anything is sealed to).
 */
import type { VerifiedTeamChain } from '../crypto/index.ts';

export interface FolderKeyRing {
  readonly chain: VerifiedTeamChain;
  readonly epochKeys: ReadonlyMap<number, CryptoKey>;
  /** user id -> base64 SPKI, only for members whose server key matches the signed key hash. */
  readonly memberKeys: ReadonlyMap<number, string>;
}
