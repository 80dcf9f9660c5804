import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity.ts';
import { activitySummary } from './activityDisplay.ts';

const entry = (details: Record<string, unknown>): ActivityEntry => ({
  seq: 1,
  at: '2026-11-23T21:43:16.000Z',
  kind: 'folder.updated',
  folder_id: 7,
  details,
  ip_hash: null,
  hash: 'h',
});

describe('activitySummary', () => {
  it('names changed settings as the screens do, and keeps a name it does not know', () => {
    expect(activitySummary(entry({ title: 'Client scans', changed: ['allowedEmails', 'fileLimit', 'linkPassword', 'somethingNew'] }))).toBe(
      '"Client scans" · changed: allowed e-mail addresses, file limit, link password, somethingNew',
    );
  });
});
