// UploadController.startUpload when the run itself throws (not a file's failure, which the engine
// reports per file): the page must leave "sending" with an error, the files must not stay in
// progress, and nothing may escape as an unhandled rejection.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { UploadController, type UploadControllerDeps } from './uploadController.ts';
import { selectQueuedFiles } from './uploadQueueSlice.ts';
import { linkLoaded, pageOpened, selectUploadStepState } from './uploadStepSlice.ts';
import { UploadStep } from './uploadSteps.ts';

afterEach(() => vi.unstubAllGlobals());

describe('UploadController.startUpload', () => {
  it('an exception of the run ends it with an error: no file left in progress, the step leaves "sending"', async () => {
    // The API's relative URLs, as the page's origin would resolve them.
    const BaseRequest = Request;
    vi.stubGlobal('Request', class extends BaseRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://sealdrop.test') : input, init);
      }
    });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ public_key_spki: 'spki' }), { status: 200, headers: { 'content-type': 'application/json' } }));
    const store = makeStore();
    store.dispatch(pageOpened({ linkToken: 'tok' }));
    store.dispatch(linkLoaded({ title: 'T', description: null, requiresPassword: false, requiresEmail: false, hasAllowedEmailsList: false, performMimeCheck: false }));
    const notices: string[] = [];
    const deps = {
      dispatch: store.dispatch,
      getState: store.getState,
      notifier: { show: (variant: string, message: string) => notices.push(`${variant}: ${message}`) },
      pool: () => {
        throw new Error('the crypto pool could not start');
      },
      transport: {},
      journal: { deliveredFiles: async () => [], resumePointFor: async () => undefined, runEnded: async () => undefined },
    } as unknown as UploadControllerDeps;
    const controller = new UploadController(deps);
    await controller.addFiles([{ file: new File(['hello'], 'a.txt', { lastModified: 1 }), relativePath: '' }]);
    expect(selectQueuedFiles(store.getState())).toHaveLength(1);

    await expect(controller.startUpload()).resolves.toBeUndefined();

    expect(controller.running).toBe(false);
    expect(selectUploadStepState(store.getState()).step).toBe(UploadStep.finishedWithErrors);
    expect(selectQueuedFiles(store.getState()).map((file) => file.status)).toEqual(['error']);
    const runError = selectUploadStepState(store.getState()).runError;
    expect(runError).toBe('Unexpected Error: the crypto pool could not start');
    expect(notices.at(-1)).toBe(`error: ${runError}`);
  });
});
