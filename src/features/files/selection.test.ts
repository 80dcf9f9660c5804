import { describe, expect, it } from 'vitest';
import { buildFileTree } from './fileTree.ts';
import { checkState, directoryCheckState, pruneSelection, selectedFiles, toggleFile, toggleGroup } from './selection.ts';
import { fileRecord } from './testing/fileRecords.ts';

const downloaded = '2030-02-01T00:00:00Z';
const a = fileRecord('1/docs/a.txt');
const b = fileRecord('2/docs/b.txt', { last_downloaded_admin: downloaded });
const c = fileRecord('3/docs/sub/c.txt');
const d = fileRecord('4/top.txt', { last_downloaded_admin: downloaded });
const all = [a, b, c, d];
const docs = buildFileTree(all).directories[0]!;
const sub = docs.directories[0]!;

describe('directory checkboxes without the filter', () => {
  it('are unchecked, indeterminate or checked by all descendants', () => {
    expect(directoryCheckState(docs, new Set(), false)).toBe('unchecked');
    expect(directoryCheckState(docs, new Set([c.id]), false)).toBe('indeterminate');
    expect(directoryCheckState(sub, new Set([c.id]), false)).toBe('checked');
    expect(directoryCheckState(docs, new Set([a.id, b.id, c.id]), false)).toBe('checked');
  });

  it('toggling a directory selects all its files, and clears them once all are selected', () => {
    const partly = new Set([a.id, d.id]);
    const selected = toggleGroup(docs.descendants, partly, false);
    expect([...selected].sort()).toEqual([a.id, b.id, c.id, d.id].sort());
    const cleared = toggleGroup(docs.descendants, selected, false);
    expect([...cleared]).toEqual([d.id]);
  });
});

describe('with the Never Downloaded filter', () => {
  it('only never-downloaded files count for a directory', () => {
    // b is downloaded, so a + c are everything selectable in docs.
    expect(directoryCheckState(docs, new Set([a.id, c.id]), true)).toBe('checked');
    expect(directoryCheckState(docs, new Set([a.id, c.id]), false)).toBe('indeterminate');
    expect(directoryCheckState(docs, new Set([b.id]), true)).toBe('unchecked');
  });

  it('toggling selects only the files the filter shows', () => {
    expect([...toggleGroup(all, new Set(), true)].sort()).toEqual([a.id, c.id].sort());
    expect(checkState(all, new Set([a.id, c.id]), true)).toBe('checked');
    expect([...toggleGroup(all, new Set([a.id, c.id]), true)]).toEqual([]);
  });

  it('turning the filter on drops hidden and deleted files from the selection', () => {
    expect([...pruneSelection(new Set([a.id, b.id, 999]), all, true)]).toEqual([a.id]);
    expect([...pruneSelection(new Set([a.id, b.id, 999]), all, false)]).toEqual([a.id, b.id]);
    expect(selectedFiles(all, new Set([d.id, a.id, b.id]), true).map((f) => f.id)).toEqual([a.id]);
  });
});

describe('single files', () => {
  it('toggle in and out of the selection', () => {
    const once = toggleFile(a.id, new Set());
    expect([...once]).toEqual([a.id]);
    expect([...toggleFile(a.id, once)]).toEqual([]);
  });
});
