// Is a typed link password at least as strong as a suggested one? A password link's keys are only
// as strong as its password once someone holds the server's copy of the link (the verifier and the
// wrapped keys allow an offline guessing attack, docs/security.md), so a typed password must cost
// at least as many guesses as the suggestion it replaces: SUGGESTED_LINK_PASSWORD_SPACE
// (2247 x 2246 x 900 = 4.54e9, 2^32.08, computed from the generator's word list in
// linkPassword.ts), as estimated by zxcvbn with its common and English dictionaries.
//
// The estimator and its dictionaries weigh about a megabyte, so they are imported only when a
// password is typed, never with the first page. Loading has a time limit, and a load that fails or
// runs out of time is an error the dialog shows: a password that could not be checked is refused,
// never accepted silently. The server and the CLI cannot make this check (the server never sees
// the password; the CLI takes the admin's word), docs/security.md.
import { settleWithin } from '../../../workers/index.ts';
import { SUGGESTED_LINK_PASSWORD_SPACE } from './linkPassword.ts';

/** Fewer estimated guesses than this and a typed password is weaker than a suggested one. */
export const MIN_TYPED_LINK_PASSWORD_GUESSES = SUGGESTED_LINK_PASSWORD_SPACE;
export const STRENGTH_ESTIMATOR_TIMEOUT_MS = 15_000;

/** Estimated guesses an attacker needs for a password. */
export type GuessEstimator = (password: string) => number;

export type LinkPasswordStrengthErrorCode = 'ESTIMATOR_UNAVAILABLE';

export class LinkPasswordStrengthError extends Error {
  override readonly name = 'LinkPasswordStrengthError';
  constructor(
    readonly code: LinkPasswordStrengthErrorCode,
    options?: ErrorOptions,
  ) {
    super('The password strength estimator could not be loaded.', options);
  }
}

/** The zxcvbn estimator with the common and English dictionaries, imported on first use. */
export async function importZxcvbnEstimator(): Promise<GuessEstimator> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return (password) => zxcvbn.check(password).guesses;
}

export interface StrengthCheckerOptions {
  load?: () => Promise<GuessEstimator>;
  timeoutMs?: number;
}

export interface StrengthChecker {
  /** Starts loading the estimator (e.g. when the admin starts typing); errors wait for isStrongEnough. */
  preload(): void;
  /** True when the password costs at least MIN_TYPED_LINK_PASSWORD_GUESSES; rejects with LinkPasswordStrengthError when the estimator is unavailable. */
  isStrongEnough(password: string): Promise<boolean>;
}

export function createStrengthChecker({ load = importZxcvbnEstimator, timeoutMs = STRENGTH_ESTIMATOR_TIMEOUT_MS }: StrengthCheckerOptions = {}): StrengthChecker {
  let loading: Promise<GuessEstimator> | null = null;

  function estimator(): Promise<GuessEstimator> {
    if (!loading) {
      const attempt = settleWithin(
        Promise.resolve().then(load),
        timeoutMs,
        () => new LinkPasswordStrengthError('ESTIMATOR_UNAVAILABLE'),
      ).catch((error: unknown) => {
        // A failed load is not remembered: the next check tries again (the network may be back).
        loading = null;
        throw error instanceof LinkPasswordStrengthError ? error : new LinkPasswordStrengthError('ESTIMATOR_UNAVAILABLE', { cause: error });
      });
      loading = attempt;
    }
    return loading;
  }

  return {
    preload() {
      estimator().catch(() => undefined);
    },
    async isStrongEnough(password) {
      const estimate = await estimator();
      return estimate(password) >= MIN_TYPED_LINK_PASSWORD_GUESSES;
    },
  };
}

/** The app's one checker, so the estimator is loaded once per page. */
export const linkPasswordStrength = createStrengthChecker();
