// The languages of the product: the web app, the service worker's pages and the server's e-mails
// and error details. Each has one catalogue, locales/<code>.json (ICU MessageFormat, flat ids by
// screen). English is the source (the code's defaultMessage texts, extracted by `npm run
// i18n:extract`) and the fallback of every other language. Adding a language is its catalogue file
// and one line here (docs/i18n.md).
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const satisfies readonly { code: string; name: string }[];

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const SOURCE_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((language) => language.code === value);
}

/**
 * The first supported language of a preference list (navigator.languages, or an Accept-Language
 * header's tags in order): an exact tag or its primary subtag ('de-AT' → 'de'); English otherwise.
 */
export function matchLanguage(preferred: readonly string[]): LanguageCode {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLanguageCode(primary)) return primary;
  }
  return SOURCE_LANGUAGE;
}

/** The tags of an Accept-Language header, highest weight first (RFC 9110 section 12.5.4). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const weightParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const weight = weightParam === undefined ? 1 : Number(weightParam.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
