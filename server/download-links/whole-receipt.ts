// Counting a link download when the recipient has received the whole file. Every ciphertext
// response to a recipient not yet counted for the file passes through a meter: it knows what the
// recipient had been sent before (`prior`), and when this response's range completes the file it
// claims the download (the atomic, limit-checked count of the repository) just before handing over
// the chunk that holds the last byte. A claim refused by the limit cuts the response there, so at
// most `maxDownloads` recipients are ever sent a whole file, however many fetch at once. A response
// that ends early, or a range that does not complete the file, stores the bytes it did hand over,
// so a resume later completes the file and counts then. The state is in the database, so it
// survives restarts and is shared by every process.
import { Transform } from 'node:stream';
import type { BackgroundTasks } from '../background-tasks.ts';
import type { DownloadLink, Repositories } from '../db/repositories/index.ts';
import type { ResponseMeter } from '../files/ciphertext-response.ts';
import { LinkExpiredError } from './errors.ts';
import { RECIPIENT_MAX_AGE_MS } from './recipients.ts';
import { addServedRange, coversWhole, formatServedRanges, parseServedRanges, type ServedRange } from './served-ranges.ts';

export interface ReceiptContext {
  repos: Repositories;
  link: DownloadLink;
  fileId: number;
  recipientHash: string;
  /** What the recipient had been sent before this response. */
  prior: readonly ServedRange[];
  now: () => number;
  background: BackgroundTasks;
  onError: (error: unknown) => void;
  /** Runs (in the background) once this response made the download count: the activity entry, the webhook. */
  onCounted: () => Promise<void>;
}

/** The recipient's state for the file: null when it was counted already (nothing to meter). */
export async function priorReceipt(repos: Repositories, linkId: number, fileId: number, recipientHash: string): Promise<ServedRange[] | null> {
  const receipt = await repos.downloadLinks.receiptOf(linkId, fileId, recipientHash);
  return receipt.counted ? null : parseServedRanges(receipt.servedRanges);
}

export function receiptMeter(context: ReceiptContext): ResponseMeter {
  const { repos, link, fileId, recipientHash } = context;
  return {
    open({ start, end, size }) {
      const completes = coversWhole(addServedRange(context.prior, [start, end + 1]), size);
      let position = start;
      let claimed = false;
      const claim = async (): Promise<boolean> => {
        const outcome = await repos.downloadLinks.claimFetch({ linkId: link.id, fileId, recipientHash, maxDownloads: link.maxDownloads, now: context.now() });
        if (outcome === 'exhausted') return false;
        claimed = true;
        if (outcome === 'counted') context.background.run(context.onCounted, context.onError);
        return true;
      };
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          const next = position + chunk.length;
          if (!completes || next <= end) {
            position = next;
            callback(null, chunk);
            return;
          }
          claim().then(
            (granted) => {
              if (!granted) {
                callback(new LinkExpiredError());
                return;
              }
              position = next;
              callback(null, chunk);
            },
            (error: unknown) => callback(error as Error),
          );
        },
      });
      meter.once('close', () => {
        if (claimed || position <= start) return;
        const sent: ServedRange = [start, position];
        context.background.run(
          () =>
            repos.downloadLinks.recordServed({
              linkId: link.id,
              fileId,
              recipientHash,
              now: context.now(),
              forgetBefore: context.now() - RECIPIENT_MAX_AGE_MS,
              merge: (stored) => formatServedRanges(addServedRange(parseServedRanges(stored), sent)),
            }),
          context.onError,
        );
      });
      return meter;
    },
  };
}
