// The server speaks the product's languages where a person reads what it writes: the
// notification e-mails (in the account's language, or the language of the request that caused
// them) and the detail of an error answer (in the request's Accept-Language). The catalogues are
// the browser's, locales/<code>.json, parsed once per language when first used.
import { readFileSync } from 'node:fs';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { LANGUAGES, SOURCE_LANGUAGE, acceptLanguageTags, isLanguageCode, matchLanguage, type LanguageCode } from '../../locales/languages.ts';
import type { LocalisedText, MessageDescriptor } from './messages.ts';

const CATALOGUE_DIRECTORY = new URL('../../locales/', import.meta.url);
const cache = createIntlCache();
const intls = new Map<LanguageCode, IntlShape>();

function readCatalogue(code: LanguageCode): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`${code}.json`, CATALOGUE_DIRECTORY), 'utf8')) as Record<string, string>;
}

export function intlFor(code: LanguageCode): IntlShape {
  let intl = intls.get(code);
  if (!intl) {
    // Merged over English, as in the browser: a missing text reads in English (and fails tests/i18n).
    const messages = code === SOURCE_LANGUAGE ? readCatalogue(code) : { ...readCatalogue(SOURCE_LANGUAGE), ...readCatalogue(code) };
    intl = createIntl({ locale: code, defaultLocale: SOURCE_LANGUAGE, messages }, cache);
    intls.set(code, intl);
  }
  return intl;
}

/** A message in `code`; nested texts among the values are put in the same language first. */
export function textIn(code: LanguageCode, text: LocalisedText | MessageDescriptor): string {
  const { message, values } = 'message' in text ? text : { message: text, values: undefined };
  const resolved: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values ?? {})) resolved[name] = typeof value === 'object' ? textIn(code, value) : value;
  return intlFor(code).formatMessage(message, resolved);
}

/** English: the text of the API contract (docs/api.md), logs and the CLI. */
export function english(text: LocalisedText | MessageDescriptor): string {
  return textIn(SOURCE_LANGUAGE, text);
}

/** The language of a request: its Accept-Language (the app sends the language it shows). */
export function requestLanguage(acceptLanguage: string | string[] | undefined): LanguageCode {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  return matchLanguage(acceptLanguageTags(header));
}

/** A stored language (an account's), or English when it is missing or no longer offered. */
export function storedLanguage(value: string | null | undefined): LanguageCode {
  return isLanguageCode(value) ? value : SOURCE_LANGUAGE;
}

export { LANGUAGES, type LanguageCode };
