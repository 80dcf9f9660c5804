// The storage feature's door: the dashboard's storage panel and per-folder usage, the
// folder form's limits, the files screen's unfinished uploads and retention dates.
export { StorageSummary } from './StorageSummary.tsx';
export { FolderStorageUsage } from './FolderStorageUsage.tsx';
export { StorageLimitFields } from './StorageLimitFields.tsx';
export { UnfinishedUploadsSection } from './UnfinishedUploadsSection.tsx';
export { FileDeletionDate, RetentionNote } from './RetentionNote.tsx';
export { limitsFormFrom, limitsPayload, validateLimits, type LimitsErrors, type LimitsFormValues, type LimitSettings } from './limitsForm.ts';
