// What other features use from the keys feature. The files screen (downloads, link creation):
//   const cryptoPool = useCryptoPool();                // src/app/cryptoPool.ts
//   const { requestPrivateKey, unlockDialog } = usePrivateKeyUnlock();
//   const privateKey = await requestPrivateKey();     // the pool's handle; null: the user cancelled
//   if (privateKey) await cryptoPool().unwrapFileKey(privateKey, file.encrypted_key) ...
//   on a CryptoError while decrypting: dispatch(privateKeyCryptoFailed())
export { usePrivateKeyUnlock, type PrivateKeyUnlock } from './usePrivateKeyUnlock.tsx';
export { PrivateKeyUnlockDialog } from './PrivateKeyUnlockDialog.tsx';
export { privateKeyCryptoFailed, privateKeyCleared, selectPrivateKey, selectPrivateKeyUnlocked } from './keysSlice.ts';
export { adoptPrivateKey, fetchStoredKeyData, requirePrivateKey, unlockPrivateKey } from './keyThunks.ts';
export { KEY_MESSAGES } from '../../lib/userTexts.ts';
export { KeyError, isKeyError, keyOperationFailureText } from './keyError.ts';
export { usePersistentWarning } from './usePersistentWarning.tsx';
export { EncryptionKeySection } from './EncryptionKeySection.tsx';
export { rewrapPrivateKeyAfterPasswordChange, type PasswordChange } from './keyThunks.ts';
