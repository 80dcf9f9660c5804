// Moves the end-to-end server's clock (server/clock.ts) instead of waiting in real time. Specs run
// one at a time (playwright.config.ts: workers 1), and every spec that moves it puts it back.
import { rmSync, writeFileSync } from 'node:fs';
import { E2E_CLOCK_OFFSET_FILE } from './environment.mjs';

export function setServerClockOffset(ms: number): void {
  writeFileSync(E2E_CLOCK_OFFSET_FILE, String(Math.round(ms)));
}

export function resetServerClock(): void {
  rmSync(E2E_CLOCK_OFFSET_FILE, { force: true });
}
