// Who the passkeys belong to: the relying party's ID (a host name) and the origin the browser must
// report. With PUBLIC_URL set both come from it, and a request through another Host is refused:
// a forged Host must not get a ceremony for another name. Without PUBLIC_URL only a loopback name
// is taken from the request (localhost, *.localhost: a one-machine set-up, a secure context
// without TLS); anything else answers PASSKEYS_UNAVAILABLE, since trusting an arbitrary Host
// header would let a proxy or a forged request pick the RP ID. WebAuthn refuses IP addresses as
// RP IDs, so a PUBLIC_URL with an address instead of a name has no passkeys either.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { hostMatchesOrigin } from '../../download-links/link-url.ts';
import { PasskeyError } from './errors.ts';

export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name: string;
}

const RP_NAME = 'Sealdrop';

function isLoopbackName(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

function fromOrigin(origin: string): RelyingParty | null {
  const url = new URL(origin);
  // The URL parser keeps IPv6 literals in brackets; isIP wants them bare.
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) !== 0) return null;
  return { id: hostname, origin: url.origin, name: RP_NAME };
}

export function relyingParty(request: FastifyRequest, publicUrl: string | null): RelyingParty {
  if (publicUrl !== null) {
    if (!hostMatchesOrigin(request.host, publicUrl)) throw new PasskeyError('PASSKEYS_UNAVAILABLE');
    const party = fromOrigin(publicUrl);
    if (!party) throw new PasskeyError('PASSKEYS_UNAVAILABLE');
    return party;
  }
  let origin: string;
  try {
    origin = new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    throw new PasskeyError('PASSKEYS_UNAVAILABLE');
  }
  const party = fromOrigin(origin);
  if (!party || !isLoopbackName(party.id)) throw new PasskeyError('PASSKEYS_UNAVAILABLE');
  return party;
}
