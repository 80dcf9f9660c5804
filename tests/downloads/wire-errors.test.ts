// Typed errors across every message boundary the app has, each the real thing: structured clone
// over a MessageChannel (results that carry failures), a Comlink call, and a download's status
// port as the service worker reports on it. The class and the code arrive; so does the message.
import { expose, wrap } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { CRYPTO_ERROR_CODES, CryptoError } from '../../crypto/index.ts';
import { DOWNLOAD_ERROR_CODES, DownloadError } from '../../workers/download-service/downloadErrors.ts';
import { DOWNLOAD_MESSAGES, downloadErrorText } from '../../src/lib/userTexts.ts';
import type { StatusMessage } from '../../workers/download-service/protocol.ts';
import { StatusReporter } from '../../workers/download-service/statusReporter.ts';
import { fromWireError, installErrorTransfer, toWireError, type WireError } from '../../workers/wire-errors.ts';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function channel(): MessageChannel {
  const made = new MessageChannel();
  ports.push(made.port1, made.port2);
  return made;
}

/** What the other side of a port receives: the value after a real postMessage. */
function posted<T>(value: T): Promise<T> {
  const { port1, port2 } = channel();
  const received = new Promise<T>((resolve) => (port2.onmessage = (event: MessageEvent<T>) => resolve(event.data)));
  port1.postMessage(value);
  return received;
}

describe('an error posted as a message', () => {
  it.each(CRYPTO_ERROR_CODES)('CryptoError %s arrives as a CryptoError with its code and message', async (code) => {
    const rebuilt = fromWireError(await posted(toWireError(new CryptoError(code, `the ${code} case`))));
    expect(rebuilt).toBeInstanceOf(CryptoError);
    expect(rebuilt).toMatchObject({ name: 'CryptoError', code, message: `the ${code} case` });
  });

  it.each(DOWNLOAD_ERROR_CODES)('DownloadError %s arrives as a DownloadError with its code and facts', async (code) => {
    const rebuilt = fromWireError(await posted(toWireError(new DownloadError(code, { file: 'a.txt', detail: `the ${code} case` }))));
    expect(rebuilt).toBeInstanceOf(DownloadError);
    expect(rebuilt).toMatchObject({ name: 'DownloadError', code, facts: { file: 'a.txt', detail: `the ${code} case` } });
  });

  it('an untyped error keeps its name and message and gains no code; a thrown string becomes an Error', async () => {
    const type = fromWireError(await posted(toWireError(new TypeError('not a function'))));
    expect(type).toBeInstanceOf(Error);
    expect(type).not.toBeInstanceOf(CryptoError);
    expect({ name: type.name, message: type.message, code: (type as { code?: unknown }).code }).toEqual({ name: 'TypeError', message: 'not a function', code: undefined });
    const text = fromWireError(await posted(toWireError('plain text')));
    expect({ name: text.name, message: text.message }).toEqual({ name: 'Error', message: 'plain text' });
  });

  it('a code this side does not know becomes the class catch-all, never an untyped error', () => {
    const crypto = fromWireError({ name: 'CryptoError', code: 'FROM_THE_FUTURE', message: 'm' } as unknown as WireError);
    expect(crypto).toBeInstanceOf(CryptoError);
    expect(crypto).toMatchObject({ code: 'WORKER_FAILED', message: 'm' });
    const download = fromWireError({ name: 'DownloadError', code: 'FROM_THE_FUTURE', message: 'm' } as unknown as WireError);
    expect(download).toBeInstanceOf(DownloadError);
    expect(download).toMatchObject({ code: 'FAILED', facts: { detail: 'm' } });
  });
});

describe('an error thrown in a Comlink call', () => {
  const thrower = {
    crypto(): string {
      throw new CryptoError('WRONG_KEY', 'not wrapped for this key');
    },
    download(): string {
      throw new DownloadError('KEY_UNAVAILABLE', { file: 'no key' });
    },
    async untyped(): Promise<string> {
      throw new RangeError('out of range');
    },
  };

  function remote() {
    installErrorTransfer();
    const { port1, port2 } = channel();
    expose(thrower, port1);
    return wrap<typeof thrower>(port2);
  }

  it('rejects the caller with the same class and code', async () => {
    const api = remote();
    const crypto = await api.crypto().catch((error: unknown) => error);
    expect(crypto).toBeInstanceOf(CryptoError);
    expect(crypto).toMatchObject({ code: 'WRONG_KEY', message: 'not wrapped for this key' });
    const download = await api.download().catch((error: unknown) => error);
    expect(download).toBeInstanceOf(DownloadError);
    expect(download).toMatchObject({ code: 'KEY_UNAVAILABLE', facts: { file: 'no key' } });
  });

  it('leaves an untyped error to Comlink: its name, message and stack arrive', async () => {
    const untyped = (await remote()
      .untyped()
      .catch((error: unknown) => error)) as Error;
    expect(untyped).not.toBeInstanceOf(CryptoError);
    expect({ name: untyped.name, message: untyped.message }).toEqual({ name: 'RangeError', message: 'out of range' });
    expect(untyped.stack).toContain('out of range');
  });
});

describe("an error on a download's status port", () => {
  function reporter() {
    const { port1, port2 } = channel();
    const messages: StatusMessage[] = [];
    const closed = new Promise<void>((resolve) => {
      port1.onmessage = (event: MessageEvent<StatusMessage>) => {
        messages.push(event.data);
        if (event.data.type === 'error') resolve();
      };
    });
    return { status: new StatusReporter(port2), messages, closed };
  }

  it('reaches the page as the DownloadError the worker failed with, whatever its code', async () => {
    const { status, messages, closed } = reporter();
    status.fileFailed('a.txt', new DownloadError('INTEGRITY'));
    status.failed(new DownloadError('KEY_FORMAT'));
    await closed;
    const [fileFailed, failed] = messages;
    if (fileFailed?.type !== 'file-failed' || failed?.type !== 'error') throw new Error(`unexpected messages ${JSON.stringify(messages)}`);
    expect(fileFailed.name).toBe('a.txt');
    expect(fromWireError(fileFailed.failure)).toBeInstanceOf(DownloadError);
    expect(downloadErrorText(fromWireError(fileFailed.failure))).toBe(DOWNLOAD_MESSAGES.integrity);
    expect(downloadErrorText(fromWireError(failed.failure))).toBe(DOWNLOAD_MESSAGES.invalidKeyFormat);
  });

  it('turns any other failure into an unexpected DownloadError that says what happened', async () => {
    const { status, messages, closed } = reporter();
    status.failed(new CryptoError('WORKER_FAILED', 'the worker stopped'));
    await closed;
    const failed = messages[0];
    if (failed?.type !== 'error') throw new Error(`unexpected message ${JSON.stringify(failed)}`);
    const error = fromWireError(failed.failure);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'FAILED' });
    expect(downloadErrorText(error as DownloadError)).toBe(DOWNLOAD_MESSAGES.unexpected('the worker stopped'));
  });
});
