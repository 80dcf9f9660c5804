// A file the server refused for an old folder key epoch is held back (sent again with the new key
// by the controller); every other outcome and event passes through.
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../transport/multipartBatch.ts';
import { FolderKeyHold } from './folderKeyHold.ts';
import type { EngineEvents, FinalOutcome } from './runEvents.ts';

function recorder() {
  const finished: [string, FinalOutcome][] = [];
  const events: EngineEvents = {
    statusChanged: () => undefined,
    progressed: () => undefined,
    waiting: () => undefined,
    finished: (id, outcome) => finished.push([id, outcome]),
    sendingStarted: () => undefined,
    emptyResponse: () => undefined,
  };
  return { events, finished };
}

describe('FolderKeyHold', () => {
  it('holds FOLDER_KEY_CHANGED refusals and passes every other outcome on', () => {
    const inner = recorder();
    const hold = new FolderKeyHold(inner.events);
    hold.finished('a', { kind: 'request-failed', code: 'FOLDER_KEY_CHANGED', reason: 'changed' });
    hold.finished('b', { kind: 'request-failed', code: 'STORAGE_FULL', reason: 'full' });
    hold.finished('c', { kind: 'stored', serverId: 3, sha256: 'x' });
    expect(hold.held).toEqual(['a']);
    expect(inner.finished.map(([id]) => id)).toEqual(['b', 'c']);
  });
});

describe('multipartBody', () => {
  it('sends a team folder\'s key_epoch as the first field, and none for a personal folder', async () => {
    const file = { name: 'a.txt', relativePath: '.', plainSize: 1, ciphertext: [new Uint8Array([1])], cipherSize: 1, encryptedKey: 'k', iv: 'i', sha256: 's' };
    const team = new TextDecoder().decode(multipartBody([file], 4).body as Uint8Array);
    expect(team.indexOf('name="key_epoch"\r\n\r\n4\r\n')).toBeGreaterThan(0);
    expect(team.indexOf('name="key_epoch"')).toBeLessThan(team.indexOf('name="files"'));
    expect(new TextDecoder().decode(multipartBody([file]).body as Uint8Array)).not.toContain('key_epoch');
  });
});
