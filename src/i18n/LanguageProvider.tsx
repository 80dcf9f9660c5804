import { useSyncExternalStore, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { RawIntlProvider, type IntlShape } from 'react-intl';
import { currentIntl, subscribeToLanguage } from './language.ts';

/** The current language's intl object; the component re-renders when the language changes. */
export function useLanguage(): IntlShape {
  return useSyncExternalStore(subscribeToLanguage, currentIntl, currentIntl);
}

/** react-intl's context for the tree (FormattedMessage, useIntl), following the current language. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const intl = useLanguage();
  return <RawIntlProvider value={intl}>{children}</RawIntlProvider>;
}

const FOLLOWS_LANGUAGE = Symbol.for('sealdrop.followsLanguage');

/**
 * A route's component that renders again, with everything under it, when the language changes.
 * The router keeps a route's element between its own updates, so without this a page would keep
 * the texts it was rendered with (texts are read at render time, src/i18n/language.ts).
 */
export function followsLanguage<Props extends object>(Component: ComponentType<Props>): (props: Props) => ReactElement {
  function FollowsLanguage(props: Props): ReactElement {
    useLanguage();
    return <Component {...props} />;
  }
  FollowsLanguage.displayName = `FollowsLanguage(${Component.displayName ?? Component.name})`;
  Object.defineProperty(FollowsLanguage, FOLLOWS_LANGUAGE, { value: true });
  return FollowsLanguage;
}

export function isFollowingLanguage(component: unknown): boolean {
  return typeof component === 'function' && (component as unknown as Record<symbol, unknown>)[FOLLOWS_LANGUAGE] === true;
}
