// The trusted device's copy of the private key: sealed under a non-extractable AES-256-GCM key the
// browser made, bound to the device id, and opened only with that key and id, into the account's
// own key pair. An extractable device key is refused. The layout and additional data are checked
// against node:crypto with a device key imported from bytes node also has (real device keys are
// generated and never leave WebCrypto).
import { createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEVICE_WRAP_AAD_LABEL, exportPublicKeySpki, generateDeviceKey, generateKeyPair, unwrapDevicePrivateKey, wrapPrivateKeyForDevice } from '../../crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

describe("the trusted device's copy of the private key", () => {
  it('is made under a device key that cannot be exported', async () => {
    const deviceKey = await generateDeviceKey();
    expect(deviceKey.extractable).toBe(false);
    expect(deviceKey.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', deviceKey)).rejects.toThrow();
  });

  it('opens with its own device key and id into the account key pair, and nothing else', async () => {
    const pair = await generateKeyPair();
    const spki = await exportPublicKeySpki(pair.publicKey);
    const deviceKey = await generateDeviceKey();
    const deviceId = randomUUID();
    const copy = await wrapPrivateKeyForDevice(pair.privateKey, deviceKey, deviceId);
    const opened = await unwrapDevicePrivateKey(copy, deviceKey, deviceId, spki);
    expect(opened.type).toBe('private');
    expect(opened.extractable).toBe(false);

    // Another device's key, another device id (a copy handed to the wrong browser), altered bytes.
    await expectCryptoError(unwrapDevicePrivateKey(copy, await generateDeviceKey(), deviceId, spki), 'WRONG_KEY');
    await expectCryptoError(unwrapDevicePrivateKey(copy, deviceKey, randomUUID(), spki), 'WRONG_KEY');
    const altered = Buffer.from(copy, 'base64');
    altered[altered.length - 1]! ^= 1;
    await expectCryptoError(unwrapDevicePrivateKey(altered.toString('base64'), deviceKey, deviceId, spki), 'WRONG_KEY');
    // A valid copy of another key pair.
    const other = await generateKeyPair();
    const otherCopy = await wrapPrivateKeyForDevice(other.privateKey, deviceKey, deviceId);
    await expectCryptoError(unwrapDevicePrivateKey(otherCopy, deviceKey, deviceId, spki), 'WRONG_KEY');
  });

  it('binds the device id as label || 0x00 || UTF-8 id (node:crypto reads it)', async () => {
    const pair = await generateKeyPair();
    const raw = randomBytes(32);
    // A device key whose bytes node also has: imported from them, non-extractable as the module requires.
    const stand = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    const deviceId = 'c0ffee00-1234-4abc-8def-000000000001';
    const copy = Buffer.from(await wrapPrivateKeyForDevice(pair.privateKey, stand, deviceId), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', raw, copy.subarray(0, 12));
    decipher.setAAD(Buffer.concat([Buffer.from(DEVICE_WRAP_AAD_LABEL), Buffer.from([0]), Buffer.from(deviceId, 'utf8')]));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    const pkcs8 = Buffer.concat([decipher.update(copy.subarray(12, copy.length - 16)), decipher.final()]);
    expect(pkcs8).toEqual(Buffer.from(await crypto.subtle.exportKey('pkcs8', pair.privateKey)));
  });

  it('refuses an extractable or wrong kind of device key, and data of the wrong shape, as MALFORMED', async () => {
    const pair = await generateKeyPair();
    const spki = await exportPublicKeySpki(pair.publicKey);
    const deviceKey = await generateDeviceKey();
    const copy = await wrapPrivateKeyForDevice(pair.privateKey, deviceKey, 'device-1');
    const extractable = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
    await expectCryptoError(wrapPrivateKeyForDevice(pair.privateKey, extractable, 'device-1'), 'MALFORMED');
    await expectCryptoError(unwrapDevicePrivateKey(copy, extractable, 'device-1', spki), 'MALFORMED');
    const short = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']);
    await expectCryptoError(wrapPrivateKeyForDevice(pair.privateKey, short, 'device-1'), 'MALFORMED');
    await expectCryptoError(wrapPrivateKeyForDevice(pair.privateKey, deviceKey, ''), 'MALFORMED');
    await expectCryptoError(unwrapDevicePrivateKey('AAAA', deviceKey, 'device-1', spki), 'MALFORMED');
    await expectCryptoError(unwrapDevicePrivateKey(`${copy}x`, deviceKey, 'device-1', spki), 'MALFORMED');
    await expectCryptoError(unwrapDevicePrivateKey(copy, deviceKey, 'device-1', '%%%'), 'MALFORMED');
  });
});
