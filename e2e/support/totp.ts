import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP } from 'otpauth';

const STEP_MS = 30_000;
/**
 * How long a code must stay valid after it is handed out: enough to type it and send it on a
 * loaded machine. Callers ask for a code just before typing it, not before a sign-in's password
 * step, whose KDF can take longer than a step has left (docs/operations.md, "Test suite").
 */
const MIN_VALIDITY_MS = 5_000;

/**
 * Plays the admin's authenticator app: computes codes from the secret the profile page shows.
 * The server accepts the previous, current and next 30 s step, each once, so this hands out a
 * step not yet used within that window: the one that stays valid longest (the next step first;
 * the previous one is accepted only until the current step ends), and waits for the next step
 * rather than hand out a code that may expire before the server sees it.
 */
export class Authenticator {
  private readonly totp: TOTP;
  private readonly usedSteps = new Set<number>();

  constructor(base32Secret: string) {
    this.totp = new TOTP({ secret: Secret.fromBase32(base32Secret.replace(/\s+/g, '')), digits: 6, period: STEP_MS / 1000, algorithm: 'SHA1' });
  }

  async nextCode(): Promise<string> {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / STEP_MS);
      // The server accepts a step until its own current step is two past it.
      const validUntil = (step: number) => (step + 2) * STEP_MS;
      const step = [current + 1, current, current - 1].find(
        (candidate) => !this.usedSteps.has(candidate) && validUntil(candidate) - now >= MIN_VALIDITY_MS,
      );
      if (step !== undefined) {
        this.usedSteps.add(step);
        return this.totp.generate({ timestamp: step * STEP_MS + 1_000 });
      }
      await sleep((current + 1) * STEP_MS - now + 50);
    }
  }
}
