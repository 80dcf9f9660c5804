// TOTP per RFC 6238: SHA-1, 6 digits, 30 s steps, the previous and next step accepted for clock
// drift. Replay protection (each step once) is done by the caller with the returned step.
import { Secret, TOTP } from 'otpauth';

export const TOTP_ISSUER = 'Sealdrop';
const PERIOD_SECONDS = 30;
const WINDOW_STEPS = 1;

function totpFor(secretBase32: string, username = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret, base32 (what authenticator apps expect). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI that authenticator apps read from the QR code. */
export function totpUri(secretBase32: string, username: string): string {
  return totpFor(secretBase32, username).toString();
}

/** The time step the code belongs to (within ±1 step of `now`), or null when it matches none. */
export function matchTotpStep(secretBase32: string, code: string, now: number): number | null {
  const totp = totpFor(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

