// Who is waiting in a download's stream: the browser that reads nothing (a paused
// download, the worker is fine) or the source that sends nothing (the worker must not claim to be
// alive for it, so the page's watchdog can end it).
import { describe, expect, it } from 'vitest';
import { DownloadError } from './downloadErrors.ts';
import { monitorStream } from './monitoredStream.ts';

const hooks = { onBytes: () => undefined, onDone: () => undefined, onFailed: () => undefined };

describe('monitorStream.readerIsBehind', () => {
  it('is true once the read-ahead is full and the browser takes nothing', async () => {
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(256 * 1024)),
    });
    const monitored = monitorStream(source, hooks);
    expect(monitored.readerIsBehind()).toBe(false);
    await expect.poll(() => monitored.readerIsBehind()).toBe(true);
    monitored.abort(new DownloadError('ABORTED'));
  });

  it('is false while the browser waits for bytes the source does not send', async () => {
    const source = new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined) });
    const monitored = monitorStream(source, hooks);
    const reading = monitored.stream.getReader().read();
    reading.catch(() => undefined);
    await Promise.resolve();
    expect(monitored.readerIsBehind()).toBe(false);
  });
});
