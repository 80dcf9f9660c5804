// A software WebAuthn authenticator for server tests, built with node:crypto only: an ES256 key
// per credential, "none" attestation, user presence and verification flags set, a signature
// counter the test can move (even backwards), and the origin it reports chosen by the test. It
// signs authenticatorData || SHA-256(clientDataJSON) as an authenticator does, so the server's
// verification (@simplewebauthn/server) sees what a browser would send.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function counterBytes(counter: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(counter >>> 0);
  return buffer;
}

export interface Ceremony {
  /** The origin put into clientDataJSON (default: the relying party's own). */
  origin?: string;
  /** Use this challenge instead of the options' one. */
  challenge?: string;
  /** Sign with this counter instead of the next one. */
  counter?: number;
  /** Send this user handle instead of the credential's. */
  userHandle?: string;
}

export class SoftCredential {
  readonly id = b64url(randomBytes(16));
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  userHandle = '';

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  private rpIdHash(): Buffer {
    return createHash('sha256').update(this.rpId).digest();
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The RegistrationResponseJSON for `options` (from register/options). */
  register(options: { challenge: string; user: { id: string } }, ceremony: Ceremony = {}) {
    this.userHandle = options.user.id;
    const idBytes = Buffer.from(this.id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([
      this.rpIdHash(),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      counterBytes(this.counter),
      Buffer.alloc(16),
      idLength,
      idBytes,
      Buffer.from(this.coseKey()),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', ceremony.challenge ?? options.challenge, ceremony.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The AuthenticationResponseJSON for `options` (from sign-in/options or reauth/options). */
  assert(options: { challenge: string }, ceremony: Ceremony = {}) {
    const counter = ceremony.counter ?? ++this.counter;
    const authData = Buffer.concat([this.rpIdHash(), Buffer.from([FLAG_UP | FLAG_UV]), counterBytes(counter)]);
    const clientDataJSON = this.clientData('webauthn.get', ceremony.challenge ?? options.challenge, ceremony.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: ceremony.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
