// The language the app speaks right now, outside React too: the texts of src/lib/userTexts are
// read through it at the moment they are shown (t, textsOf), and the React tree follows it through
// LanguageProvider. English is compiled into the shell; another language is fetched (precached)
// the first time it is chosen, merged over English so a missing text falls back to English
// (tests/i18n/catalogues.test.ts reports any that is missing).
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createIntl, createIntlCache, type IntlShape, type MessageDescriptor } from 'react-intl';
import { settleWithin } from '../../workers/index.ts';
import english from 'virtual:catalogue/en';
import { catalogueLoaders } from 'virtual:catalogues';
import { LANGUAGES, SOURCE_LANGUAGE, isLanguageCode, matchLanguage, type LanguageCode } from '../../locales/languages.ts';

export type MessageValues = Record<string, string | number | boolean | Date | null | undefined>;

/** Where the chosen language is remembered in this browser. */
export const LANGUAGE_STORAGE_KEY = 'sealdrop.language';

const cache = createIntlCache();
const listeners = new Set<() => void>();

function intlFor(code: LanguageCode, messages: Record<string, MessageFormatElement[]>): IntlShape {
  return createIntl({ locale: code, defaultLocale: SOURCE_LANGUAGE, messages }, cache);
}

let current: IntlShape = intlFor(SOURCE_LANGUAGE, english);

export function currentIntl(): IntlShape {
  return current;
}

export function currentLanguage(): LanguageCode {
  return current.locale as LanguageCode;
}

export function subscribeToLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One text in the current language. */
export function t(descriptor: MessageDescriptor, values?: MessageValues): string {
  return current.formatMessage(descriptor, values as Record<string, string | number | boolean | Date | null>);
}

/**
 * An object whose properties are texts in the current language, read when used: the shape the
 * texts modules had as constant objects (GATE_MESSAGES.passwordRequired), now following the
 * language.
 */
export function textsOf<const Keys extends string>(descriptors: Record<Keys, MessageDescriptor>): { readonly [Key in Keys]: string } {
  const texts = {} as { [Key in Keys]: string };
  for (const key of Object.keys(descriptors) as Keys[]) {
    Object.defineProperty(texts, key, { enumerable: true, get: () => t(descriptors[key]) });
  }
  return texts;
}

/** The language a page starts in: the one chosen in this browser, else the browser's own. */
export function initialLanguage(storage: Pick<Storage, 'getItem'> | null, preferred: readonly string[]): LanguageCode {
  const stored = safeRead(storage);
  return isLanguageCode(stored) ? stored : matchLanguage(preferred);
}

function safeRead(storage: Pick<Storage, 'getItem'> | null): string | null {
  try {
    return storage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    // Storage refused (a private window's policy): the browser's language then.
    return null;
  }
}

/**
 * The account's language to open in after signing in, or null: only when this browser has no
 * choice of its own (a choice made here wins over one made on another device) and the page does
 * not already speak it.
 */
export function accountLanguageToApply(accountLanguage: string | null | undefined, storage: Pick<Storage, 'getItem'> | null): LanguageCode | null {
  if (!isLanguageCode(accountLanguage) || isLanguageCode(safeRead(storage))) return null;
  return accountLanguage === currentLanguage() ? null : accountLanguage;
}

/** How long a language's catalogue may take to arrive (it is precached; a network fetch otherwise). */
export const CATALOGUE_TIMEOUT_MS = 10_000;

/** A catalogue that could not be fetched, or not in time: the page stays in its language. */
export class LanguageLoadError extends Error {
  readonly code = 'LANGUAGE_NOT_LOADED';
  constructor(readonly language: string) {
    super(`The catalogue of ${language} could not be loaded`);
  }
}

export async function loadMessages(code: LanguageCode): Promise<Record<string, MessageFormatElement[]>> {
  if (code === SOURCE_LANGUAGE) return english;
  const load = catalogueLoaders[code];
  if (!load) throw new LanguageLoadError(code);
  // A fetch that never answers would otherwise hold the first render (main.tsx) for ever.
  const { default: messages } = await settleWithin(
    load().catch(() => Promise.reject(new LanguageLoadError(code))),
    CATALOGUE_TIMEOUT_MS,
    () => new LanguageLoadError(code),
  );
  return { ...english, ...messages };
}

/** Switches every text to `code`; `document` gets its lang so screen readers and hyphenation follow. */
export async function switchLanguage(code: LanguageCode): Promise<void> {
  const messages = await loadMessages(code);
  current = intlFor(code, messages);
  if (typeof document !== 'undefined') document.documentElement.lang = code;
  for (const listener of listeners) listener();
}

/** Switches and remembers the choice in this browser. */
export async function chooseLanguage(code: LanguageCode, storage: Pick<Storage, 'setItem'> | null): Promise<void> {
  await switchLanguage(code);
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // Not remembered (storage refused); the page still speaks the chosen language.
  }
}

export { LANGUAGES, type LanguageCode };
