// How an activity log entry reads: its kind's label (from the catalogue) and a one-line summary of its facts.
import type { ActivityEntry } from '../../../contract/activity.ts';
import { t } from '../../i18n/language.ts';
import { ACTIVITY_LABELS, CHANGED_SETTING_LABELS } from '../../lib/userTexts.ts';
import { ACTIVITY_MESSAGES as messages } from './messages.ts';

export function activityLabel(kind: string): string {
  return (ACTIVITY_LABELS as Record<string, string>)[kind] ?? kind;
}

const files = (count: number) => t(messages.files, { count });

/** A short summary of the entry's facts (names, counts, the uploader), or '' when it has none worth showing. */
export function activitySummary(entry: ActivityEntry): string {
  const details = entry.details as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof details.title === 'string') parts.push(t(messages.title, { title: details.title }));
  if (typeof details.name === 'string') parts.push(details.name);
  if (typeof details.files === 'number') parts.push(files(details.files));
  if (Array.isArray(details.file_ids)) parts.push(files(details.file_ids.length));
  if (typeof details.uploader_email === 'string') parts.push(t(messages.uploader, { email: details.uploader_email }));
  if (Array.isArray(details.changed) && details.changed.length > 0) {
    const settings = details.changed.map((name) => CHANGED_SETTING_LABELS[String(name)] ?? String(name)).join(', ');
    parts.push(t(messages.changed, { settings }));
  }
  if (details.second_factor === true) parts.push(t(messages.secondFactor));
  if (typeof details.fingerprint === 'string') parts.push(t(messages.key, { fingerprint: details.fingerprint }));
  return parts.join(' · ');
}
