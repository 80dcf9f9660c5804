// The compiled catalogues of locales/, made by scripts/i18n/compile-catalogue.ts at build time.
declare module 'virtual:catalogues' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  export const catalogueLoaders: Record<string, () => Promise<{ default: Record<string, MessageFormatElement[]> }>>;
}
declare module 'virtual:catalogue/en' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  const catalogue: Record<string, MessageFormatElement[]>;
  export default catalogue;
}
