import { afterEach, describe, expect, it } from 'vitest';
import { accountLanguageToApply, chooseLanguage, currentLanguage, initialLanguage, LANGUAGE_STORAGE_KEY, switchLanguage, t, textsOf } from './language.ts';

const storage = (value: string | null) => ({ getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? value : null) });
const message = { id: 'layout.homeLink', defaultMessage: 'Sealdrop home' };

afterEach(() => switchLanguage('en'));

describe('the page language', () => {
  it('starts in the choice made in this browser, else the first of the browser languages it has, else English', () => {
    expect(initialLanguage(storage('de'), ['en-US'])).toBe('de');
    expect(initialLanguage(storage(null), ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(initialLanguage(storage('xx'), ['fr'])).toBe('en');
    expect(initialLanguage({ getItem: () => { throw new DOMException('denied', 'SecurityError'); } }, ['de'])).toBe('de');
  });

  it("opens in the account's language only when this browser has no choice of its own", () => {
    expect(accountLanguageToApply('de', storage(null))).toBe('de');
    expect(accountLanguageToApply('de', storage('en'))).toBeNull();
    expect(accountLanguageToApply(null, storage(null))).toBeNull();
    expect(accountLanguageToApply('fr', storage(null))).toBeNull();
    expect(accountLanguageToApply('en', storage(null))).toBeNull();
  });

  it('reads texts when they are used, so a switch changes them everywhere', async () => {
    const texts = textsOf({ home: message });
    expect(texts.home).toBe('Sealdrop home');
    const stored = new Map<string, string>();
    await chooseLanguage('de', { setItem: (key, value) => stored.set(key, value) });
    expect(currentLanguage()).toBe('de');
    expect(texts.home).toBe('Sealdrop-Startseite');
    expect(t(message)).toBe('Sealdrop-Startseite');
    expect(stored.get(LANGUAGE_STORAGE_KEY)).toBe('de');
  });
});
