// The step machine of the public upload page (spec section 4, "Upload page steps"). Every
// transition is an action; an action that does not apply to the current step changes nothing, so
// a late answer (say, a password check finishing after the link failed) cannot move the page to a
// step it has no business in. Serialisable state only.

import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer, type RootState } from '../../app/rootReducer.ts';
import { UploadStep, type UploadStepNumber } from './uploadSteps.ts';
import { PAGE_MESSAGES } from '../../lib/userTexts.ts';

export interface UploadLinkInfo {
  title: string;
  description: string | null;
  requiresPassword: boolean;
  requiresEmail: boolean;
  hasAllowedEmailsList: boolean;
  performMimeCheck: boolean;
}

export interface UploadStepState {
  step: UploadStepNumber;
  linkToken: string | null;
  link: UploadLinkInfo | null;
  /** Step 8's message. */
  fatalMessage: string | null;
  /** The address a code was sent to (steps 3 and later). */
  email: string | null;
  /** Step 9's message. */
  keyError: string | null;
  /** Step 7's message (what went wrong in the last run). */
  runError: string | null;
}

export const initialUploadStepState: UploadStepState = {
  step: UploadStep.loading,
  linkToken: null,
  link: null,
  fatalMessage: null,
  email: null,
  keyError: null,
  runError: null,
};

function afterPassword(link: UploadLinkInfo | null): UploadStepNumber {
  return link?.requiresEmail ? UploadStep.email : UploadStep.ready;
}

function startable(step: UploadStepNumber): boolean {
  return step === UploadStep.ready || step === UploadStep.finishedWithErrors || step === UploadStep.keyFailed;
}

export const uploadStepSlice = createSlice({
  name: 'uploadStep',
  initialState: initialUploadStepState,
  reducers: {
    /** The page opened (again) for a link; a missing token is fatal at once. */
    pageOpened(_state, action: PayloadAction<{ linkToken: string | null }>) {
      const { linkToken } = action.payload;
      if (linkToken === null) return { ...initialUploadStepState, step: UploadStep.fatal, fatalMessage: PAGE_MESSAGES.tokenMissing };
      return { ...initialUploadStepState, linkToken };
    },
    linkLoaded(state, action: PayloadAction<UploadLinkInfo>) {
      if (state.step !== UploadStep.loading) return;
      const link = action.payload;
      state.link = link;
      state.step = link.requiresPassword ? UploadStep.password : link.requiresEmail ? UploadStep.email : UploadStep.ready;
    },
    linkFailed(state, action: PayloadAction<{ message: string | null }>) {
      if (state.step !== UploadStep.loading) return;
      state.step = UploadStep.fatal;
      state.fatalMessage = action.payload.message || PAGE_MESSAGES.linkInvalid;
    },
    passwordAccepted(state) {
      if (state.step === UploadStep.password) state.step = afterPassword(state.link);
    },
    /** Wrong password: the page stays at step 1 (the form shows the error). */
    passwordRejected() {},
    codeSent(state, action: PayloadAction<{ email: string }>) {
      if (state.step !== UploadStep.email) return;
      state.email = action.payload.email;
      state.step = UploadStep.code;
    },
    /** Sending failed: the page stays at step 2. */
    codeSendFailed() {},
    codeAccepted(state) {
      if (state.step === UploadStep.code) state.step = UploadStep.ready;
    },
    /** Wrong code: the page stays at step 3. */
    codeRejected() {},
    /** 'Go Back (Change Email)'. */
    changeEmailRequested(state) {
      if (state.step === UploadStep.code) state.step = UploadStep.email;
    },
    /** Starting an upload: the recipient's key loaded, so processing begins (step 5). */
    keyLoaded(state) {
      if (!startable(state.step)) return;
      state.step = UploadStep.processing;
      state.keyError = null;
      state.runError = null;
    },
    /** Starting an upload: the key did not load (step 9). */
    keyFailed(state, action: PayloadAction<{ message: string }>) {
      if (!startable(state.step)) return;
      state.step = UploadStep.keyFailed;
      state.keyError = action.payload.message;
    },
    /** The first bytes go to the server (step 6). */
    sendingStarted(state) {
      if (state.step === UploadStep.processing) state.step = UploadStep.uploading;
    },
    /** Every file of the run was processed: back to 4, or 7 when anything failed. */
    runFinished(state, action: PayloadAction<{ errorMessage: string | null }>) {
      if (state.step !== UploadStep.processing && state.step !== UploadStep.uploading) return;
      const { errorMessage } = action.payload;
      state.step = errorMessage === null ? UploadStep.ready : UploadStep.finishedWithErrors;
      state.runError = errorMessage;
    },
  },
});

declare module '../../app/rootReducer.ts' {
  export interface LazyLoadedSlices extends WithSlice<typeof uploadStepSlice> {}
}

const injected = uploadStepSlice.injectInto(rootReducer);

export const {
  pageOpened,
  linkLoaded,
  linkFailed,
  passwordAccepted,
  passwordRejected,
  codeSent,
  codeSendFailed,
  codeAccepted,
  codeRejected,
  changeEmailRequested,
  keyLoaded,
  keyFailed,
  sendingStarted,
  runFinished,
} = uploadStepSlice.actions;

export function selectUploadStepState(state: RootState): UploadStepState {
  return injected.selectSlice(state);
}

export const selectUploadStep = (state: RootState): UploadStepNumber => selectUploadStepState(state).step;
