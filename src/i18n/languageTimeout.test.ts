// A catalogue fetch that never answers (a server or proxy that holds the request) ends in a typed
// error after CATALOGUE_TIMEOUT_MS, and the page keeps its language.
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('virtual:catalogues', () => ({ catalogueLoaders: { de: () => new Promise(() => {}) } }));

const { CATALOGUE_TIMEOUT_MS, LanguageLoadError, currentLanguage, switchLanguage } = await import('./language.ts');

afterEach(() => vi.useRealTimers());

describe('a catalogue that never arrives', () => {
  it('fails with LanguageLoadError once its time is up, and the page stays in English', async () => {
    vi.useFakeTimers();
    const switching = switchLanguage('de');
    const outcome = expect(switching).rejects.toBeInstanceOf(LanguageLoadError);
    await vi.advanceTimersByTimeAsync(CATALOGUE_TIMEOUT_MS);
    await outcome;
    expect(currentLanguage()).toBe('en');
  });
});
