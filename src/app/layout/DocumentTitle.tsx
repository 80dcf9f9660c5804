import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { documentTitle, NOT_FOUND_TITLE, PAGE_TITLES } from '../../lib/userTexts.ts';

/**
 * Names the document after the screen shown (WCAG 2.4.2): a single-page app otherwise keeps the
 * one <title> of index.html on every screen, and a screen reader announces the same name on
 * arrival everywhere. Routes without a title of their own (the index redirect) leave it alone.
 */
export function DocumentTitle() {
  const path = useRouterState({ select: (state) => state.matches[state.matches.length - 1]?.fullPath ?? '' });
  useEffect(() => {
    const screen = PAGE_TITLES[path];
    if (screen) document.title = documentTitle(screen);
  }, [path]);
  return null;
}

/** The 404 screen's title; the screen sets it itself, as no route matched. */
export function useNotFoundTitle(): void {
  useEffect(() => {
    document.title = documentTitle(NOT_FOUND_TITLE);
  }, []);
}
