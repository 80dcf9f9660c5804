// What a German screen is checked for beyond axe and layout: no English text of the catalogue left
// on it (e2e/german.spec.ts walks every screen; the single-sign-on screens are in sso-german.spec.ts).
import { expect, type Page } from '@playwright/test';
import { catalogue } from './texts.ts';

/**
 * The catalogue's English texts that differ from their German, as matchers: an argument becomes
 * "anything", a plural or select its branches' words. Texts of one short word are matched whole
 * (so "Link" inside German is no finding), longer ones anywhere in a text of the page.
 */
function englishMatchers(): Array<{ id: string; english: string; pattern: RegExp }> {
  const en = catalogue('en');
  const de = catalogue('de');
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return Object.entries(en)
    .filter(([id, message]) => de[id] !== message && !/[{}]/.test(message.replace(/\{[a-zA-Z]+\}/g, '')))
    .map(([id, message]) => {
      const parts = message.split(/\{[a-zA-Z]+\}/).map(escape);
      const body = parts.join('.+?');
      const wordCount = message.replace(/\{[a-zA-Z]+\}/g, '').trim().split(/\s+/).length;
      const pattern = wordCount <= 2 ? new RegExp(`^${body}$`) : new RegExp(body);
      return { id, english: message, pattern };
    })
    .filter(({ english }) => english.replace(/\{[a-zA-Z]+\}/g, '').replace(/[^A-Za-z]/g, '').length >= 4);
}

/** Every text a person reads or hears on the page now: text nodes and the labelling attributes. */
async function textsOnPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, [hidden]')) continue;
      const value = node.textContent?.trim();
      if (value) found.push(value);
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description]')) {
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = element.getAttribute(attribute)?.trim();
        if (value) found.push(value);
      }
    }
    found.push(document.title);
    return found;
  });
}

export async function expectNoEnglish(page: Page, screen: string, userData: readonly string[] = []): Promise<void> {
  const matchers = englishMatchers();
  const texts = (await textsOnPage(page)).filter((value) => !userData.some((data) => value.includes(data)));
  const leftovers = texts.flatMap((value) => matchers.filter(({ pattern }) => pattern.test(value)).map(({ id }) => `${id}: ${JSON.stringify(value)}`));
  expect(leftovers, `English left on ${screen}`).toEqual([]);
}
