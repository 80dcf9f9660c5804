// How often a running transfer is announced to screen readers: every quarter. A live region that
// followed every progress flush (several a second) would talk over everything else on the page;
// one at each quarter lets a listener follow a long upload without being drowned by it.

export const ANNOUNCE_STEP_PERCENT = 25;

/** The last quarter reached (0, 25, 50, 75 or 100); what the announcement says, so it changes only then. */
export function announcedPercent(percent: number): number {
  if (!Number.isFinite(percent) || percent <= 0) return 0;
  if (percent >= 100) return 100;
  return Math.floor(percent / ANNOUNCE_STEP_PERCENT) * ANNOUNCE_STEP_PERCENT;
}
