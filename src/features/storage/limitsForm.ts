// The folder form's storage part (beyond the spec's fields): a storage limit in MB, a
// file limit and retention in days, each with its own "no limit" choice. Pure, so each rule is a
// unit test. The form starts from the folder (edit) or the server's defaults (create); a change
// sends only what the admin changed, so a limit set through the API in odd bytes survives an edit
// that does not touch it.
import type { FolderPayload } from '../../api/types.ts';
import { LIMIT_TEXTS } from '../../lib/userTexts.ts';

export const MIB = 1024 * 1024;

export interface LimitSettings {
  storage_limit_bytes: number | null;
  file_limit: number | null;
  retention_days: number | null;
}

export interface LimitsFormValues {
  storageLimited: boolean;
  /** As typed. */
  storageLimitMb: string;
  filesLimited: boolean;
  fileLimit: string;
  deleteAfterDays: boolean;
  retentionDays: string;
  /** What the form started from; an update sends only the settings that differ from it. */
  initial: LimitSettings;
}

export type LimitsField = 'storageLimitMb' | 'fileLimit' | 'retentionDays';
export type LimitsErrors = Partial<Record<LimitsField, string>>;

/** Megabytes as typed: a whole or decimal number above 0 (e.g. "500", "0.5"). */
function parseMegabytes(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const bytes = Math.round(Number(trimmed) * MIB);
  return bytes >= 1 ? bytes : null;
}

function parseWhole(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 ? value : null;
}

/** A byte count as MB for the field: whole when it is, else with up to two decimals. */
function megabytesText(bytes: number): string {
  const mb = bytes / MIB;
  return Number.isInteger(mb) ? String(mb) : String(Math.round(mb * 100) / 100);
}

export function limitsFormFrom(settings: LimitSettings): LimitsFormValues {
  return {
    storageLimited: settings.storage_limit_bytes !== null,
    storageLimitMb: settings.storage_limit_bytes === null ? '' : megabytesText(settings.storage_limit_bytes),
    filesLimited: settings.file_limit !== null,
    fileLimit: settings.file_limit === null ? '' : String(settings.file_limit),
    deleteAfterDays: settings.retention_days !== null,
    retentionDays: settings.retention_days === null ? '' : String(settings.retention_days),
    initial: settings,
  };
}

export function validateLimits(values: LimitsFormValues | null): LimitsErrors {
  const errors: LimitsErrors = {};
  if (values === null) return errors;
  if (values.storageLimited && parseMegabytes(values.storageLimitMb) === null) errors.storageLimitMb = LIMIT_TEXTS.invalidMegabytes;
  if (values.filesLimited && parseWhole(values.fileLimit) === null) errors.fileLimit = LIMIT_TEXTS.invalidFileCount;
  if (values.deleteAfterDays && parseWhole(values.retentionDays) === null) errors.retentionDays = LIMIT_TEXTS.invalidDays;
  return errors;
}

/** The settings the form holds (valid values assumed: validateLimits first). */
export function limitSettings(values: LimitsFormValues): LimitSettings {
  const stored = values.initial.storage_limit_bytes;
  // The field shows MB rounded to two decimals: untouched, it stands for the exact stored bytes.
  const untouched = stored !== null && values.storageLimitMb.trim() === megabytesText(stored);
  return {
    storage_limit_bytes: values.storageLimited ? (untouched ? stored : parseMegabytes(values.storageLimitMb)) : null,
    file_limit: values.filesLimited ? parseWhole(values.fileLimit) : null,
    retention_days: values.deleteAfterDays ? parseWhole(values.retentionDays) : null,
  };
}

/**
 * The payload's limit fields: on create all three (null meaning "no limit" explicitly); on update
 * those that changed. No values (the defaults could not be loaded): none, the server's apply.
 */
export function limitsPayload(values: LimitsFormValues | null, mode: 'create' | 'update'): Pick<FolderPayload, keyof LimitSettings> {
  if (values === null) return {};
  const settings = limitSettings(values);
  const keys = Object.keys(settings) as Array<keyof LimitSettings>;
  return Object.fromEntries(keys.filter((key) => mode === 'create' || settings[key] !== values.initial[key]).map((key) => [key, settings[key]]));
}
