// How an activity log entry reads: its kind's label (from the catalogue) and a one-line summary of its facts.
import type { ActivityEntry } from '../../../contract/activity.ts';
import { ACTIVITY_LABELS, CHANGED_SETTING_LABELS } from '../../lib/userTexts.ts';

export function activityLabel(kind: string): string {
  return (ACTIVITY_LABELS as Record<string, string>)[kind] ?? kind;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A short summary of the entry's facts (names, counts, the uploader), or '' when it has none worth showing. */
export function activitySummary(entry: ActivityEntry): string {
  const details = entry.details as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof details.title === 'string') parts.push(`"${details.title}"`);
  if (typeof details.name === 'string') parts.push(details.name);
  if (typeof details.files === 'number') parts.push(plural(details.files, 'file'));
  if (Array.isArray(details.file_ids)) parts.push(plural(details.file_ids.length, 'file'));
  if (typeof details.uploader_email === 'string') parts.push(`by ${details.uploader_email}`);
  if (Array.isArray(details.changed) && details.changed.length > 0) parts.push(`changed: ${details.changed.map((name) => CHANGED_SETTING_LABELS[String(name)] ?? String(name)).join(', ')}`);
  if (details.second_factor === true) parts.push('with 2FA');
  if (typeof details.fingerprint === 'string') parts.push(`key ${details.fingerprint}`);
  return parts.join(' · ');
}
