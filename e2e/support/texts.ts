// The texts a spec expects on screen, by message id and language, read from the catalogues the
// app is built from (locales/<code>.json): a German spec asserts German, and a wording change in
// the catalogue does not break the spec that looks for it.
import { readFileSync } from 'node:fs';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { SOURCE_LANGUAGE, type LanguageCode } from '../../locales/languages.ts';

const cache = createIntlCache();
const intls = new Map<LanguageCode, IntlShape>();

const catalogues = new Map<LanguageCode, Record<string, string>>();

/** A language's catalogue, read once per worker. */
export function catalogue(code: LanguageCode): Record<string, string> {
  let messages = catalogues.get(code);
  if (!messages) {
    messages = JSON.parse(readFileSync(new URL(`../../locales/${code}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    catalogues.set(code, messages);
  }
  return messages;
}

function intlFor(code: LanguageCode): IntlShape {
  let intl = intls.get(code);
  if (!intl) {
    intl = createIntl({ locale: code, defaultLocale: SOURCE_LANGUAGE, messages: catalogue(code) }, cache);
    intls.set(code, intl);
  }
  return intl;
}

/** The message `id` in `code`, with its values; throws for an id no catalogue has. */
export function text(code: LanguageCode, id: string, values?: Record<string, string | number>): string {
  if (!(id in catalogue(SOURCE_LANGUAGE))) throw new Error(`No message ${id} in locales/en.json`);
  return intlFor(code).formatMessage({ id }, values);
}

/**
 * The German of an English text the app shows, found by its English message: the German spec
 * walks the steps the English specs take, each step's names translated through the catalogue, so
 * a text that is not in the catalogue (a literal left in a component) fails the spec. Throws when
 * no message, or several with different German, read `english`.
 */
export function german(english: string, values?: Record<string, string | number>): string {
  const ids = Object.entries(catalogue(SOURCE_LANGUAGE))
    .filter(([, message]) => message === english)
    .map(([id]) => id);
  if (ids.length === 0) throw new Error(`No English message reads ${JSON.stringify(english)}`);
  const translations = [...new Set(ids.map((id) => text('de', id, values)))];
  if (translations.length > 1) throw new Error(`${JSON.stringify(english)} has several German texts (${ids.join(', ')}): use text('de', id)`);
  const [translation] = translations as [string];
  if (translation === text('en', ids[0]!, values) && /[a-z]{3}/i.test(translation)) {
    // A German text that reads exactly as the English one is allowed only for names (Passkey, Link).
    if (!/^[A-Z][\w-]*$/.test(translation)) throw new Error(`${JSON.stringify(english)} is not translated in locales/de.json (${ids.join(', ')})`);
  }
  return translation;
}
