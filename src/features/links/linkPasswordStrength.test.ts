import { describe, expect, it, vi } from 'vitest';
import { GENERATED_LINK_PASSWORD, SUGGESTED_LINK_PASSWORD_SPACE, generateLinkPassword } from './linkPassword.ts';
import { LINK_PASSWORD_NOUNS } from './linkPasswordNouns.ts';
import { LinkPasswordStrengthError, MIN_TYPED_LINK_PASSWORD_GUESSES, createStrengthChecker, importZxcvbnEstimator } from './linkPasswordStrength.ts';

describe('the typed link password threshold', () => {
  it('is the number of different suggestions, 2^32 or more', () => {
    expect(MIN_TYPED_LINK_PASSWORD_GUESSES).toBe(LINK_PASSWORD_NOUNS.length * (LINK_PASSWORD_NOUNS.length - 1) * 900);
    expect(MIN_TYPED_LINK_PASSWORD_GUESSES).toBe(SUGGESTED_LINK_PASSWORD_SPACE);
    expect(Math.log2(MIN_TYPED_LINK_PASSWORD_GUESSES)).toBeGreaterThanOrEqual(32);
  });

  it('zxcvbn with the common and English dictionaries refuses common 8+ character passwords and accepts long uncommon ones', async () => {
    const checker = createStrengthChecker();
    for (const weak of ['password1', 'Summer2026!', 'qwertyuiop123', 'longenough', 'Passwort2026']) expect(await checker.isStrongEnough(weak), weak).toBe(false);
    for (const strong of ['violet kettle marches 93 upward', 'k8#Lm2$pQ9vXr']) expect(await checker.isStrongEnough(strong), strong).toBe(true);
  });

  it('the estimator rates the suggestions themselves at or above the threshold (it does not know the German list)', async () => {
    const estimate = await importZxcvbnEstimator();
    for (let i = 0; i < 20; i++) {
      const suggestion = generateLinkPassword();
      expect(suggestion).toMatch(GENERATED_LINK_PASSWORD);
      expect(estimate(suggestion), suggestion).toBeGreaterThanOrEqual(MIN_TYPED_LINK_PASSWORD_GUESSES);
    }
  });
});

describe('createStrengthChecker', () => {
  it('loads the estimator once for many checks', async () => {
    const load = vi.fn(() => Promise.resolve((password: string) => password.length * 1e9));
    const checker = createStrengthChecker({ load });
    checker.preload();
    expect(await checker.isStrongEnough('abcd')).toBe(false);
    expect(await checker.isStrongEnough('abcdefgh')).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('rejects with a coded error when loading fails, and tries again on the next check', async () => {
    const load = vi.fn<() => Promise<(password: string) => number>>().mockRejectedValueOnce(new TypeError('offline')).mockResolvedValue(() => 1e12);
    const checker = createStrengthChecker({ load });
    const failure = await checker.isStrongEnough('anything at all').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LinkPasswordStrengthError);
    expect((failure as LinkPasswordStrengthError).code).toBe('ESTIMATOR_UNAVAILABLE');
    expect(await checker.isStrongEnough('anything at all')).toBe(true);
  });

  it('gives up after its time limit instead of waiting for ever', async () => {
    const checker = createStrengthChecker({ load: () => new Promise(() => undefined), timeoutMs: 20 });
    await expect(checker.isStrongEnough('anything at all')).rejects.toMatchObject({ code: 'ESTIMATOR_UNAVAILABLE' });
  });
});
