/**
 * The page -> worker message that starts one direct-to-disk download (docs/download.md, "Direct to
 * disk"). The page creates a dedicated worker per download and posts the plan with two ports, as
 * for the service worker: the crypto worker posts the file keys into the first, the download
 * worker reports on the second (the StatusMessage / ControlMessage of ../protocol.ts). The handle
 * the user picked travels in the plan (handles are structured-cloneable); nothing in it is secret.
 */
import { isPlanEntry, type PlanEntry } from '../protocol.ts';

export const DIRECT_PLAN_MESSAGE = 'sealdrop-direct:plan';

export type DirectTarget =
  /** One file, written into the handle a save dialog returned. */
  | { readonly kind: 'file'; readonly file: FileSystemFileHandle }
  /** Several files, each written under its relative path (the entry's name) inside the folder. */
  | { readonly kind: 'tree'; readonly directory: FileSystemDirectoryHandle };

export interface DirectPlan {
  readonly type: typeof DIRECT_PLAN_MESSAGE;
  readonly target: DirectTarget;
  readonly entries: readonly PlanEntry[];
  /**
   * Tree only: a file that fails (other than by cancelling or a disk that refuses writes) is removed,
   * reported with 'file-failed', and the others carry on.
   */
  readonly skipFailedFiles: boolean;
}

function isTarget(value: unknown): value is DirectTarget {
  if (typeof value !== 'object' || value === null) return false;
  const target = value as { kind?: unknown; file?: unknown; directory?: unknown };
  if (target.kind === 'file') return typeof target.file === 'object' && target.file !== null;
  return target.kind === 'tree' && typeof target.directory === 'object' && target.directory !== null;
}

export function isDirectPlan(value: unknown): value is DirectPlan {
  if (typeof value !== 'object' || value === null) return false;
  const plan = value as Partial<DirectPlan>;
  return (
    plan.type === DIRECT_PLAN_MESSAGE &&
    isTarget(plan.target) &&
    typeof plan.skipFailedFiles === 'boolean' &&
    Array.isArray(plan.entries) &&
    plan.entries.every(isPlanEntry) &&
    (plan.target.kind === 'tree' || plan.entries.length === 1)
  );
}
