// Screenshots to look at, not to compare: with SSO_SHOTS_DIR set, a spec keeps each screen it
// names at 1280 and 390 px (full page); without it, nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

const SHOTS_DIR = process.env.SSO_SHOTS_DIR;

export async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const wide = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: wide.height });
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(wide);
}
