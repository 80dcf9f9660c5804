import { describe, expect, it } from 'vitest';
import { announcedPercent } from './transferAnnouncement.ts';

describe('announcedPercent', () => {
  it('changes only at each quarter, so a live region speaks four times per transfer, not at every flush', () => {
    const said = new Set(Array.from({ length: 1001 }, (_, tenth) => announcedPercent(tenth / 10)));
    expect([...said]).toEqual([0, 25, 50, 75, 100]);
    expect(announcedPercent(24.9)).toBe(0);
    expect(announcedPercent(25)).toBe(25);
    expect(announcedPercent(99.9)).toBe(75);
  });

  it('keeps odd inputs inside 0–100', () => {
    expect(announcedPercent(-5)).toBe(0);
    expect(announcedPercent(Number.NaN)).toBe(0);
    expect(announcedPercent(250)).toBe(100);
  });
});
