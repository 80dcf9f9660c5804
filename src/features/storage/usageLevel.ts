// How full a folder is against one of its limits, for the storage display: the level is always
// said in words too (not by colour alone).

export type UsageLevel = 'unlimited' | 'ok' | 'nearly-full' | 'full';

/** From this share of a limit on, a folder counts as nearly full. */
export const NEARLY_FULL_SHARE = 0.9;

export function usageLevel(used: number, limit: number | null): UsageLevel {
  if (limit === null) return 'unlimited';
  if (used >= limit) return 'full';
  return used >= limit * NEARLY_FULL_SHARE ? 'nearly-full' : 'ok';
}

/** The fuller of two levels (bytes and files). */
export function fullerLevel(a: UsageLevel, b: UsageLevel): UsageLevel {
  const order: UsageLevel[] = ['unlimited', 'ok', 'nearly-full', 'full'];
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

/** Percent of the limit used, 0 to 100, for a progress bar (null without a limit). */
export function usedPercent(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  return Math.min(100, Math.round((used / limit) * 100));
}
