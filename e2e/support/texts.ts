// The texts a spec expects on screen, by message id and language, read from the catalogues the
// app is built from (locales/<code>.json): a German spec asserts German, and a wording change in
// the catalogue does not break the spec that looks for it.
import { readFileSync } from 'node:fs';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { SOURCE_LANGUAGE, type LanguageCode } from '../../locales/languages.ts';

const cache = createIntlCache();
const intls = new Map<LanguageCode, IntlShape>();

export function catalogue(code: LanguageCode): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`../../locales/${code}.json`, import.meta.url), 'utf8')) as Record<string, string>;
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
