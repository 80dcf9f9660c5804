/** A size for people: 0 B, 999 B, 1.5 KB, 12.3 MB, 4.80 GB (binary units, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit >= 2 && value < 10 ? 2 : 1)} ${units[unit]}`;
}
