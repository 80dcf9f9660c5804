// The upload page's steps (spec section 4, "Upload page steps"), as numbers because the spec names
// them by number, with names for code that reads better than a bare 5.

export const UploadStep = {
  loading: 0,
  password: 1,
  email: 2,
  code: 3,
  ready: 4,
  processing: 5,
  uploading: 6,
  finishedWithErrors: 7,
  fatal: 8,
  keyFailed: 9,
} as const;

export type UploadStepNumber = (typeof UploadStep)[keyof typeof UploadStep];

/** Dropping is disabled during steps 5 and 6 and outside steps 4, 7 and 9. */
export function canDropFiles(step: UploadStepNumber): boolean {
  return step === UploadStep.ready || step === UploadStep.finishedWithErrors || step === UploadStep.keyFailed;
}

/** The steps from which an upload may start (the same ones where files can be added). */
export const canStartUpload = canDropFiles;

/** An upload is running: the key is loaded and files are being processed or sent. */
export function isUploadRunning(step: UploadStepNumber): boolean {
  return step === UploadStep.processing || step === UploadStep.uploading;
}
