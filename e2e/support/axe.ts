// Accessibility checks the a11y specs share (issue 29, docs/accessibility.md): axe-core with the
// WCAG 2.0–2.2 A/AA rules on the page as it is now, failing on any critical or serious violation;
// besides, two things axe only lists for review and a person would object to (aria-label where no
// role allows one; the same id twice). A screenshot of each checked state goes to A11Y_SHOTS_DIR
// when it is set (for looking at the layout, not asserted).
import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SHOTS_DIR = process.env.A11Y_SHOTS_DIR;
/** "Needs review" results that fail the check all the same. */
const REVIEW_RULES_THAT_FAIL = new Set(['aria-prohibited-attr']);

/**
 * Waits until every finite CSS transition and animation of the page has ended (a chip or a button
 * fading to its new colour, a dialog sliding in): axe measures colours as they are at that moment.
 * Endless ones (a spinner, an indeterminate bar) are left running.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => {
      const end = animation.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end);
    });
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Ids that more than one element of the page carries. */
async function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const element of document.querySelectorAll('[id]')) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id, count]) => `id="${id}" ×${count}`);
  });
}

/** Problems on the page as it is now, as readable lines for the failure message. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const describe = (kind: string, rule: { id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }) =>
    `${rule.id} (${kind}${rule.impact ? `, ${rule.impact}` : ''}): ${rule.nodes.map((node) => node.target.join(' ')).join(', ')}`;
  return [
    ...results.violations.filter((rule) => rule.impact === 'critical' || rule.impact === 'serious').map((rule) => describe('violation', rule)),
    ...results.incomplete.filter((rule) => REVIEW_RULES_THAT_FAIL.has(rule.id)).map((rule) => describe('needs review', rule)),
    ...(await duplicateIds(page)).map((line) => `duplicate id: ${line}`),
  ];
}

/** Fails with every problem listed when the page, as it is now, has any. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await accessibilityProblems(page), `accessibility of ${screen}`).toEqual([]);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/${screen}-${page.viewportSize()?.width ?? 0}.png`, fullPage: true });
  }
}
