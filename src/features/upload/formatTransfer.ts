// Sizes, rates and times left as the upload page shows them. Sizes use binary units written the
// way the spec writes its limit (5120 MB = 5 GiB), with no decimal from 100 up.

import { formatBytes } from '../../lib/formatBytes.ts';

export function formatRate(bytesPerSecond: number | null): string | null {
  return bytesPerSecond === null ? null : `${formatBytes(Math.max(0, Math.round(bytesPerSecond)), 'wholeFrom100')}/s`;
}

export function formatTimeLeft(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s left`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s left`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min left`;
}

/** '12.3 MB of 27.0 MB · 45.2 MB/s · 3 s left' (parts without a value are left out). */
export function transferLine(sent: number, total: number, bytesPerSecond: number | null, secondsLeft: number | null): string {
  return [`${formatBytes(sent, 'wholeFrom100')} of ${formatBytes(total, 'wholeFrom100')}`, formatRate(bytesPerSecond), formatTimeLeft(secondsLeft)].filter(Boolean).join(' · ');
}
