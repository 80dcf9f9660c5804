import { Secret, TOTP } from 'otpauth';

/**
 * Plays the admin's authenticator app: computes codes from the secret the profile page shows.
 * The server accepts the previous, current and next 30 s step, each once, so this hands out a
 * step not yet used within that window.
 */
export class Authenticator {
  private readonly totp: TOTP;
  private readonly usedSteps = new Set<number>();

  constructor(base32Secret: string) {
    this.totp = new TOTP({ secret: Secret.fromBase32(base32Secret.replace(/\s+/g, '')), digits: 6, period: 30, algorithm: 'SHA1' });
  }

  nextCode(): string {
    const current = Math.floor(Date.now() / 30_000);
    const step = [current, current + 1, current - 1].find((candidate) => !this.usedSteps.has(candidate));
    if (step === undefined) throw new Error('All codes of the current window are used; wait for the next step.');
    this.usedSteps.add(step);
    return this.totp.generate({ timestamp: step * 30_000 + 1_000 });
  }
}
