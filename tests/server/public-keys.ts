/** Fresh public keys, base64 DER SPKI as the app sends them, for routes that only store them. */
import { generateKeyPairSync } from 'node:crypto';

/** An account key's public half (RSA-2048, as the browser makes it). */
export const rsaSpki = (): string => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

/** A P-256 public key (an organisation recovery key, an approval request's key). */
export const p256Spki = (): string => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
