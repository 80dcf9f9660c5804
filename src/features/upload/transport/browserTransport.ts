// The real transports, as the engine's UploadTransport (engine/enginePorts.ts).
import type { UploadTransport } from '../engine/enginePorts.ts';
import { completeUploads, sendMultipartBatch } from './multipartBatch.ts';
import { sendWithTus } from './tusUpload.ts';

export const browserTransport: UploadTransport = {
  sendBatch: sendMultipartBatch,
  sendLarge: sendWithTus,
  complete: completeUploads,
};
