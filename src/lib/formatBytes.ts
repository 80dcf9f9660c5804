// Sizes for people in binary units (1 KB = 1024 B), as file managers and the spec write them
// (5120 MB = 5 GiB). One function for every screen; the screens differ only in how many decimals
// they show, and each keeps its own so that no size the app shows changes. The number follows the
// page's language (12.3 MB, German 12,3 MB), without thousands separators as before.
import { currentIntl } from '../i18n/language.ts';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * How many decimals a size shows (bytes never have any):
 * - `oneDecimal`: always one: 12.3 MB, 300.0 MB (the files screen: totals and download progress).
 * - `wholeFrom100`: one below 100, none from 100: 12.3 MB, 300 MB (the upload page).
 * - `twoBelow10GB`: two for GB and TB below 10, otherwise one: 4.80 GB, 12.3 MB (the download-link page).
 */
export type SizeDecimals = 'oneDecimal' | 'wholeFrom100' | 'twoBelow10GB';

export function formatBytes(bytes: number, decimals: SizeDecimals): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} B`;
  const digits = decimalsFor(value, unit, decimals);
  const number = currentIntl().formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  return `${number} ${UNITS[unit]}`;
}

function decimalsFor(value: number, unit: number, decimals: SizeDecimals): number {
  switch (decimals) {
    case 'oneDecimal':
      return 1;
    case 'wholeFrom100':
      return value >= 100 ? 0 : 1;
    case 'twoBelow10GB':
      return unit >= UNITS.indexOf('GB') && value < 10 ? 2 : 1;
  }
}
