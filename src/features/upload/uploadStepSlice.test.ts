import { describe, expect, it } from 'vitest';
import { canDropFiles, UploadStep, type UploadStepNumber } from './uploadSteps.ts';
import {
  changeEmailRequested,
  codeAccepted,
  codeRejected,
  codeSendFailed,
  codeSent,
  initialUploadStepState,
  keyFailed,
  keyLoaded,
  linkFailed,
  linkLoaded,
  pageOpened,
  passwordAccepted,
  passwordRejected,
  runFinished,
  sendingStarted,
  uploadStepSlice,
  type UploadLinkInfo,
  type UploadStepState,
} from './uploadStepSlice.ts';

const reduce = uploadStepSlice.reducer;
const link = (overrides: Partial<UploadLinkInfo> = {}): UploadLinkInfo => ({
  title: 'Tax',
  description: null,
  requiresPassword: false,
  requiresEmail: false,
  hasAllowedEmailsList: false,
  performMimeCheck: true,
  ...overrides,
});
const opened = reduce(undefined, pageOpened({ linkToken: 'tok' }));
const at = (step: UploadStepNumber, info = link()): UploadStepState => ({ ...opened, step, link: info });

describe('loading the link (step 0)', () => {
  it('starts at 0 with a token and goes to 8 without one', () => {
    expect(opened.step).toBe(UploadStep.loading);
    expect(opened.linkToken).toBe('tok');
    const missing = reduce(undefined, pageOpened({ linkToken: null }));
    expect(missing).toMatchObject({ step: 8, fatalMessage: 'Token missing from URL.' });
  });

  it('goes to 1 when a password is required, else 2 when e-mail is, else 4', () => {
    expect(reduce(opened, linkLoaded(link({ requiresPassword: true, requiresEmail: true }))).step).toBe(1);
    expect(reduce(opened, linkLoaded(link({ requiresEmail: true }))).step).toBe(2);
    expect(reduce(opened, linkLoaded(link())).step).toBe(4);
  });

  it('goes to 8 with the server message, or the fallback text', () => {
    expect(reduce(opened, linkFailed({ message: 'Link invalid/expired.' }))).toMatchObject({ step: 8, fatalMessage: 'Link invalid/expired.' });
    expect(reduce(opened, linkFailed({ message: null })).fatalMessage).toBe('Link invalid/expired.');
  });

  it('ignores a late status answer after leaving step 0', () => {
    expect(reduce(at(4), linkFailed({ message: 'x' })).step).toBe(4);
  });
});

describe('gates', () => {
  it('a correct password leads to 2 when e-mail is required, else 4; a wrong one stays at 1', () => {
    expect(reduce(at(1, link({ requiresPassword: true, requiresEmail: true })), passwordAccepted()).step).toBe(2);
    expect(reduce(at(1, link({ requiresPassword: true })), passwordAccepted()).step).toBe(4);
    expect(reduce(at(1), passwordRejected()).step).toBe(1);
  });

  it('sending a code leads to 3; a failed send stays at 2', () => {
    const sent = reduce(at(2), codeSent({ email: 'a@example.com' }));
    expect(sent).toMatchObject({ step: 3, email: 'a@example.com' });
    expect(reduce(at(2), codeSendFailed()).step).toBe(2);
  });

  it('a correct code leads to 4, a wrong one stays at 3, Go Back returns to 2', () => {
    expect(reduce(at(3), codeAccepted()).step).toBe(4);
    expect(reduce(at(3), codeRejected()).step).toBe(3);
    expect(reduce(at(3), changeEmailRequested()).step).toBe(2);
  });

  it('ignores gate answers in other steps', () => {
    expect(reduce(at(4), passwordAccepted()).step).toBe(4);
    expect(reduce(at(8), codeAccepted()).step).toBe(8);
    expect(reduce(at(4), codeSent({ email: 'a@b.c' })).step).toBe(4);
  });
});

describe('uploading', () => {
  it('goes to 5 after the key loads, to 6 while sending, back to 4 without errors', () => {
    const processing = reduce(at(4), keyLoaded());
    expect(processing.step).toBe(5);
    const sending = reduce(processing, sendingStarted());
    expect(sending.step).toBe(6);
    expect(reduce(sending, runFinished({ errorMessage: null }))).toMatchObject({ step: 4, runError: null });
  });

  it('goes to 7 when the run had errors, and can start again from 7', () => {
    const failed = reduce(at(6), runFinished({ errorMessage: 'Some files failed to upload. Check file statuses.' }));
    expect(failed).toMatchObject({ step: 7, runError: 'Some files failed to upload. Check file statuses.' });
    expect(reduce(failed, keyLoaded())).toMatchObject({ step: 5, runError: null });
  });

  it('a run where processing failed before anything was sent ends from 5', () => {
    expect(reduce(at(5), runFinished({ errorMessage: 'All files failed during client-side processing. Please check files or try again.' })).step).toBe(7);
  });

  it('goes to 9 when the key fails, and from 9 to 5 when it loads on a later try', () => {
    const failed = reduce(at(4), keyFailed({ message: 'Recipient public key is missing or not configured.' }));
    expect(failed).toMatchObject({ step: 9, keyError: 'Recipient public key is missing or not configured.' });
    expect(reduce(failed, keyLoaded())).toMatchObject({ step: 5, keyError: null });
  });

  it('does not start from gates, loading, fatal or a running upload', () => {
    for (const step of [0, 1, 2, 3, 5, 6, 8] as const) expect(reduce(at(step), keyLoaded()).step).toBe(step);
    expect(reduce(at(4), runFinished({ errorMessage: null })).step).toBe(4);
    expect(reduce(at(4), sendingStarted()).step).toBe(4);
  });
});

describe('canDropFiles', () => {
  it('allows dropping only in steps 4, 7 and 9', () => {
    const allowed = ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const).filter((step) => canDropFiles(step));
    expect(allowed).toEqual([4, 7, 9]);
  });
});

it('has step 0 as its initial state', () => {
  expect(initialUploadStepState.step).toBe(0);
});
