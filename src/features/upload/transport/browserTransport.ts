// The real transports, as the pipeline's UploadTransport.
import type { UploadTransport } from '../uploadPipeline.ts';
import { completeUploads, sendMultipartBatch } from './multipartBatch.ts';
import { sendWithTus } from './tusUpload.ts';

export const browserTransport: UploadTransport = {
  sendBatch: sendMultipartBatch,
  sendLarge: sendWithTus,
  complete: completeUploads,
};
