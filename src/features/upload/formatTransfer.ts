// Sizes, rates and times left as the upload page shows them. Sizes use binary units written the
// way the spec writes its limit (5120 MB = 5 GiB), with no decimal from 100 up.

import { t } from '../../i18n/language.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import { transferMessages } from './messages.ts';

export function formatRate(bytesPerSecond: number | null): string | null {
  return bytesPerSecond === null ? null : `${formatBytes(Math.max(0, Math.round(bytesPerSecond)), 'wholeFrom100')}/s`;
}

export function formatTimeLeft(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return t(transferMessages.secondsLeft, { seconds: s });
  if (s < 3600) return t(transferMessages.minutesLeft, { minutes: Math.floor(s / 60), seconds: s % 60 });
  return t(transferMessages.hoursLeft, { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) });
}

/** '12.3 MB of 27.0 MB · 45.2 MB/s · 3 s left' (parts without a value are left out). */
export function transferLine(sent: number, total: number, bytesPerSecond: number | null, secondsLeft: number | null): string {
  return [t(transferMessages.sentOfTotal, { sent: formatBytes(sent, 'wholeFrom100'), total: formatBytes(total, 'wholeFrom100') }), formatRate(bytesPerSecond), formatTimeLeft(secondsLeft)].filter(Boolean).join(' · ');
}
