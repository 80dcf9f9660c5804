import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { documentTitle, notFoundTitle, PAGE_TITLES } from '../../lib/userTexts.ts';

/**
 * Names the document after the screen shown (WCAG 2.4.2): a single-page app otherwise keeps the
 * one <title> of index.html on every screen, and a screen reader announces the same name on
 * arrival everywhere. Routes without a title of their own (the index redirect) leave it alone.
 * A change of language names it again.
 */
export function DocumentTitle() {
  const { locale } = useIntl();
  const path = useRouterState({ select: (state) => state.matches[state.matches.length - 1]?.fullPath ?? '' });
  useEffect(() => {
    const screen = PAGE_TITLES[path];
    if (screen) document.title = documentTitle(screen);
  }, [path, locale]);
  return null;
}

/** The 404 screen's title; the screen sets it itself, as no route matched. */
export function useNotFoundTitle(): void {
  const { locale } = useIntl();
  useEffect(() => {
    document.title = documentTitle(notFoundTitle());
  }, [locale]);
}
