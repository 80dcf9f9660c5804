// DOM matchers for the component tests (toBeVisible, toBeDisabled, toHaveTextContent ...): an
// element found by getBy* already proves it exists, so a test asserts what the user would see.
import { configure } from '@testing-library/dom';
import '@testing-library/jest-dom/vitest';

// findBy* and waitFor give up after this long. The default (1 s) is shorter than a first render
// takes when Vitest runs several files at once on two cores; a passing check returns at once.
configure({ asyncUtilTimeout: 10_000 });
