// The auth bodies of contract/auth.ts with the check only the server makes: a parameter block a
// client picks for its account must be scheme 3 (bound to a name) at the default cost
// (server/auth/login-secret.ts); the handlers check the name is the account's.
import * as contract from '../../../contract/auth.ts';
import { ENCRYPTED_PRIVATE_KEY_MIN_BYTES } from '../../../contract/keys.ts';
import { isNewAccountKdfParams } from '../../auth/login-secret.ts';
import { decodeStrictBase64 } from '../../base64.ts';
import { NODE_ARGON2_DEFAULT_COST } from '../../crypto/index.ts';

const { memoryKiB, passes, lanes } = NODE_ARGON2_DEFAULT_COST;
const COST_MESSAGE = `must be scheme 3 (argon2id bound to the username) at the current cost: ${memoryKiB} KiB, ${passes} passes, ${lanes} lane`;

export const changePasswordBody = contract.changePasswordBody.refine((body) => isNewAccountKdfParams(body.new_kdf_params), {
  path: ['new_kdf_params'],
  message: `New KDF parameters ${COST_MESSAGE}`,
});

const keyDataIsBase64 = (privateKey: { encryptedPrivateKey: string } | undefined) =>
  privateKey === undefined || (decodeStrictBase64(privateKey.encryptedPrivateKey)?.length ?? 0) >= ENCRYPTED_PRIVATE_KEY_MIN_BYTES;

export const bindLoginBody = contract.bindLoginBody
  .refine((body) => isNewAccountKdfParams(body.new_kdf_params), {
    path: ['new_kdf_params'],
    message: `New KDF parameters ${COST_MESSAGE}`,
  })
  .refine((body) => keyDataIsBase64(body.private_key), {
    path: ['private_key', 'encryptedPrivateKey'],
    message: 'Encrypted private key is not base64 of IV and ciphertext',
  });

export const upgradeLoginBody = contract.upgradeLoginBody
  .refine((body) => isNewAccountKdfParams(body.kdf_params), {
    path: ['kdf_params'],
    message: `KDF parameters ${COST_MESSAGE}`,
  })
  .refine((body) => body.private_key === undefined || (decodeStrictBase64(body.private_key.encryptedPrivateKey)?.length ?? 0) >= ENCRYPTED_PRIVATE_KEY_MIN_BYTES, {
    path: ['private_key', 'encryptedPrivateKey'],
    message: 'Encrypted private key is not base64 of IV and ciphertext',
  });
