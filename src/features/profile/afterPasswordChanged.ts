// What happens after the server accepted a new login password (spec section 4, Password change).
// The keys feature adds its step here: fetch the stored key data; if any, decrypt it with the old
// password, re-encrypt with the new one and save it. Steps run in order; a failing step stops the
// chain and its error is shown (a UserFacingError keeps its exact text).

import type { CryptoPoolSource } from '../../app/cryptoPool.ts';
import type { AppDispatch } from '../../app/store.ts';
import { rewrapPrivateKeyAfterPasswordChange } from '../keys/index.ts';

export interface PasswordChangedContext {
  oldPassword: string;
  newPassword: string;
  /** The account's new KDF parameter block, sent with the change. */
  newKdfParams: string;
  dispatch: AppDispatch;
  cryptoPool: CryptoPoolSource;
}

export interface PasswordChangedStep {
  /** For logs and tests; never shown with secrets. */
  name: string;
  run(context: PasswordChangedContext): Promise<void>;
}

export const afterPasswordChangedSteps: readonly PasswordChangedStep[] = [{ name: 'rewrap-private-key', run: rewrapPrivateKeyAfterPasswordChange }];

export async function runAfterPasswordChanged(steps: readonly PasswordChangedStep[], context: PasswordChangedContext): Promise<void> {
  for (const step of steps) await step.run(context);
}
