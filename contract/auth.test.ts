import { describe, expect, it } from 'vitest';
import { bindLoginBody, upgradeLoginBody } from './auth.ts';

const secret = (fill: string) => `${fill.repeat(42)}A=`;
const NEW_BLOCK = 'AwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==';
const OTHER_BLOCK = 'AwEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ==';
const privateKey = (kdfSalt: string) => ({ public_key_spki: 'spki', encryptedPrivateKey: 'wrapped', kdfSalt });

const moves = {
  'upgrade-login': { schema: upgradeLoginBody, body: { password: 'old password', auth_secret: secret('A'), kdf_params: NEW_BLOCK } },
  'bind-login': { schema: bindLoginBody, body: { auth_secret: secret('A'), new_auth_secret: secret('B'), new_kdf_params: NEW_BLOCK } },
};

describe('login moves (upgrade-login, bind-login): the private key goes under the new block', () => {
  for (const [name, { schema, body }] of Object.entries(moves)) {
    it(`${name}: accepts no private key, or one wrapped under the new block`, () => {
      expect(schema.safeParse(body).success).toBe(true);
      expect(schema.safeParse({ ...body, private_key: privateKey(NEW_BLOCK) }).success).toBe(true);
    });

    it(`${name}: refuses a private key wrapped under another block, naming its kdfSalt`, () => {
      const result = schema.safeParse({ ...body, private_key: privateKey(OTHER_BLOCK) });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => ({ path: issue.path, message: issue.message }))).toEqual([
        { path: ['private_key', 'kdfSalt'], message: 'The private key must be wrapped under the new KDF parameters' },
      ]);
    });
  }
});
