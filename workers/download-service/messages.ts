// What the service worker answers a request for a download it cannot serve. The page words these
// in its language and sends them with each plan (DownloadPlan.texts); until a plan has come, the
// worker answers in English.
import { defineMessages } from '../../locales/defineMessages.ts';

export const DOWNLOAD_SERVICE_MESSAGES = defineMessages({
  expired: { id: 'download.service.expired', defaultMessage: 'This download link has expired. Start the download again from the app.' },
  failed: { id: 'download.service.failed', defaultMessage: 'The download failed. Start it again from the app.' },
});

export interface DownloadServiceTexts {
  readonly expired: string;
  readonly failed: string;
}

export const ENGLISH_DOWNLOAD_SERVICE_TEXTS: DownloadServiceTexts = {
  expired: DOWNLOAD_SERVICE_MESSAGES.expired.defaultMessage,
  failed: DOWNLOAD_SERVICE_MESSAGES.failed.defaultMessage,
};
