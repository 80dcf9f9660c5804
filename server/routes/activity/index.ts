// The signed-in admin's activity log, mounted at /api/activity: a page of entries (newest first,
// filtered by folder, kinds and time, paged by seq), the whole filtered log as CSV or JSON, and a
// check of the account's hash chain. Every export carries the signed checkpoint of the account's
// newest entry (whatever the filter), so a saved export later shows entries removed after it
// (`npm run admin -- verify-activity <user> --checkpoints <export>`).
import type { FastifyInstance } from 'fastify';
import type { StoredEntry } from '../../activity/chain.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { activityExportQuery, activityPage, activityQuery, activityVerification } from '../../../contract/activity.ts';

const EXPORT_BATCH = 1000;

function toView(entry: StoredEntry) {
  return {
    seq: entry.seq,
    at: new Date(entry.at).toISOString(),
    kind: entry.kind,
    folder_id: entry.folderId,
    details: JSON.parse(entry.details) as Record<string, unknown>,
    ip_hash: entry.ipHash,
    hash: entry.hash,
  };
}

/** A CSV field (RFC 4180), with a leading formula character neutralised for spreadsheets. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  // A folder's entries live in its owner's log (folder-activity.ts): filtered by a folder the
  // account is a member of, the page reads that log; otherwise the account's own (a folder id it
  // cannot see, or one deleted since, then shows only what its own log holds).
  async function logOf(userId: number, folderId: number | undefined): Promise<number> {
    if (folderId === undefined) return userId;
    const folder = await repos.folders.findForAccount(userId, folderId);
    return folder ? folder.ownerId : userId;
  }

  routes.get('/', { schema: { querystring: activityQuery, response: { 200: activityPage } } }, async (request) => {
    const { user } = signedIn(request);
    const { folder_id, kind, from, to, before_seq, limit } = request.query;
    const entries = await repos.activityLog.page(await logOf(user.id, folder_id), { folderId: folder_id, kinds: kind, from, to, beforeSeq: before_seq }, limit + 1);
    const page = entries.slice(0, limit);
    return { entries: page.map(toView), next_before_seq: entries.length > limit ? page[page.length - 1]!.seq : null };
  });

  routes.get('/export', { schema: { querystring: activityExportQuery } }, async (request, reply) => {
    const { user } = signedIn(request);
    const { folder_id, kind, from, to, format } = request.query;
    const log = await logOf(user.id, folder_id);
    const all: StoredEntry[] = [];
    let beforeSeq: number | undefined;
    for (;;) {
      const batch = await repos.activityLog.page(log, { folderId: folder_id, kinds: kind, from, to, beforeSeq }, EXPORT_BATCH);
      all.push(...batch);
      if (batch.length < EXPORT_BATCH) break;
      beforeSeq = batch[batch.length - 1]!.seq;
    }
    const checkpoint = await app.activity.checkpoint(log);
    const stamp = new Date(app.now()).toISOString().slice(0, 10);
    reply.header('cache-control', 'no-store');
    reply.header('content-disposition', `attachment; filename="sealdrop-activity-${stamp}.${format}"`);
    if (format === 'json') {
      reply.type('application/json; charset=utf-8');
      return JSON.stringify({ checkpoint, entries: all.map(toView) }, null, 2);
    }
    const header = ['seq', 'at', 'kind', 'folder_id', 'details', 'ip_hash', 'prev_hash', 'hash'];
    const lines = all.map((entry) =>
      [String(entry.seq), new Date(entry.at).toISOString(), entry.kind, entry.folderId === null ? '' : String(entry.folderId), entry.details, entry.ipHash ?? '', entry.prevHash, entry.hash]
        .map(csvField)
        .join(','),
    );
    // A last line of its own after the entries, which a reader of the entries can tell apart.
    const trailer = checkpoint === null ? [] : [`# checkpoint ${checkpoint}`];
    reply.type('text/csv; charset=utf-8');
    return `${[header.join(','), ...lines, ...trailer].join('\r\n')}\r\n`;
  });

  routes.get('/verify', { schema: { response: { 200: activityVerification } } }, async (request) => {
    const check = await app.activity.verify(signedIn(request).user.id);
    return check.ok ? { ok: true, entries: check.entries, first_broken_seq: null } : { ok: false, entries: 0, first_broken_seq: check.seq };
  });
}
