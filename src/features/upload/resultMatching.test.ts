import { describe, expect, it } from 'vitest';
import { matchResults, resultKey } from './resultMatching.ts';
import { RUN_MESSAGES } from '../../lib/userTexts.ts';

const item = <T extends object>(name: string, path: string, extra: T) => ({ filename: name.replace(/%22/g, '"'), original_raw_name_from_client: name, path, size: 1, ...extra });

describe('resultKey', () => {
  it('lower-cases, NFC-normalises and reads %22 as a quote', () => {
    const decomposed = 'Gru\u0308ße';
    expect(resultKey('Project/2025', `${decomposed} %22x%22.TXT`)).toBe(resultKey('project/2025', 'grüße "x".txt'));
    expect(resultKey('.', 'a.txt')).toBe('./a.txt');
    expect(resultKey('', 'a.txt')).toBe('./a.txt');
  });

  it('keeps directories apart', () => {
    expect(resultKey('a', 'b.txt')).not.toBe(resultKey('.', 'a/b.txt'.replace('/', '_')));
  });
});

describe('matchResults', () => {
  const sent = [
    { id: '1', name: 'Grüße "x".txt', relativePath: 'Project/2025' },
    { id: '2', name: 'nohash.txt', relativePath: '.' },
    { id: '3', name: 'lost.txt', relativePath: '.' },
  ];

  it('matches successes and failures by the key and reports the rest as unreported', () => {
    const outcomes = matchResults(sent, {
      successful_files: [item('GRÜSSE.txt', '.', { id: 99 }), item('Grüße %22x%22.txt', 'project/2025', { id: 17 })],
      failed_files: [item('nohash.txt', '.', { error: 'Missing or invalid file hash' })],
    });
    expect(outcomes.get('1')).toEqual({ ok: true, serverId: 17 });
    expect(outcomes.get('2')).toEqual({ ok: false, error: 'Missing or invalid file hash', unreported: false });
    expect(outcomes.get('3')).toEqual({ ok: false, error: RUN_MESSAGES.unreported, unreported: true });
  });

  it('gives a failure without a message the default text', () => {
    const outcomes = matchResults([sent[1]!], { successful_files: [], failed_files: [item('nohash.txt', '.', { error: '' })] });
    expect(outcomes.get('2')).toEqual({ ok: false, error: 'Upload failed on server', unreported: false });
  });

  it('hands results with the same key to same-key files in order', () => {
    const twins = [
      { id: 'a', name: 'A.txt', relativePath: '.' },
      { id: 'b', name: 'a.txt', relativePath: '.' },
    ];
    const outcomes = matchResults(twins, { successful_files: [item('A.txt', '.', { id: 1 }), item('a.txt', '.', { id: 2 })], failed_files: [] });
    expect(outcomes.get('a')).toEqual({ ok: true, serverId: 1 });
    expect(outcomes.get('b')).toEqual({ ok: true, serverId: 2 });
  });
});
