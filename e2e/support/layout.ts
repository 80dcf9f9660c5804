// Layout checks of the phone spec (issue 29): nothing the user needs scrolls sideways, every
// target is on screen and at least 24 × 24 CSS px (WCAG 2.5.8), measured with boundingBox.
import { expect, type Locator, type Page } from '@playwright/test';

/** WCAG 2.5.8 (AA). */
export const MIN_TARGET_PX = 24;

const TARGETS = [
  'a[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  '[role=button]',
  '[role=checkbox]',
  '[role=radio]',
  '[role=switch]',
  '[role=combobox]',
  '[role=menuitem]',
].join(', ');

/**
 * The page does not scroll sideways, and no element the user needs does either: every element
 * whose content is wider than its box while it may scroll (overflow-x auto or scroll) is listed.
 */
export async function expectNoSidewaysScrolling(page: Page, screen: string): Promise<void> {
  const found = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const problems: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      // Name what sticks out: the innermost elements whose right edge passes the viewport's.
      const outside = [...document.querySelectorAll<HTMLElement>('body *')].filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1);
      const innermost = outside.filter((element) => !outside.some((other) => other !== element && element.contains(other))).slice(0, 5);
      const named = innermost.map((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`);
      problems.push(`the page: ${root.scrollWidth} px of content in ${root.clientWidth} px (${named.join(', ')})`);
    }
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const overflowX = getComputedStyle(element).overflowX;
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        const name = element.getAttribute('aria-label') ?? element.getAttribute('role') ?? element.className.toString().split(' ')[0];
        problems.push(`${element.tagName.toLowerCase()} ${name}: ${element.scrollWidth} px of content in ${element.clientWidth} px`);
      }
    }
    return problems;
  });
  expect(found, `sideways scrolling on ${screen}`).toEqual([]);
}

/** A link inside running text (WCAG 2.5.8's inline exception): its line box is the text's. */
async function isInlineInText(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
    const parent = element.parentElement;
    return parent !== null && (parent.textContent ?? '').trim().length > (element.textContent ?? '').trim().length;
  });
}

/**
 * Every visible target of `scope` (the page, or a dialog) lies inside the viewport's width and is
 * at least 24 × 24 px. Links inside sentences are exempt, as WCAG 2.5.8 exempts them.
 */
export async function expectTargetsReachable(page: Page, screen: string, scope: Locator = page.locator('body')): Promise<number> {
  const width = page.viewportSize()?.width ?? 0;
  const problems: string[] = [];
  let measured = 0;
  for (const target of await scope.locator(TARGETS).all()) {
    if (!(await target.isVisible())) continue;
    const box = await target.boundingBox();
    if (!box || (await isInlineInText(target))) continue;
    measured += 1;
    const name = (await target.getAttribute('aria-label')) ?? (await target.textContent())?.trim().slice(0, 40) ?? '';
    const label = `${await target.evaluate((element) => element.tagName.toLowerCase())} "${name}"`;
    if (box.width < MIN_TARGET_PX || box.height < MIN_TARGET_PX) problems.push(`${label}: ${box.width.toFixed(1)} × ${box.height.toFixed(1)} px`);
    if (box.x < 0 || box.x + box.width > width + 0.5) problems.push(`${label}: off-screen sideways (x ${box.x.toFixed(0)}–${(box.x + box.width).toFixed(0)} of ${width})`);
  }
  expect(problems, `targets on ${screen}`).toEqual([]);
  return measured;
}

/** The dialog (MUI's paper, which carries role="dialog") fits the viewport: it may scroll up and down inside, never sideways. */
export async function expectDialogFits(page: Page, dialog: Locator, screen: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const paper = dialog;
  await expect(paper).toHaveClass(/MuiDialog-paper/);
  const box = (await paper.boundingBox())!;
  expect(box.x, `${screen}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${screen}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${screen}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  const sideways = await paper.evaluate((element) => {
    const wide: string[] = [];
    for (const child of [element, ...element.querySelectorAll<HTMLElement>('*')]) {
      if (child.scrollWidth > child.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(child).overflowX)) wide.push(child.className.toString().split(' ')[0] ?? child.tagName);
    }
    return wide;
  });
  expect(sideways, `${screen}: sideways scrolling inside the dialog`).toEqual([]);
  await expectTargetsReachable(page, screen, dialog);
}
