import { describe, expect, it } from 'vitest';
import { GENERATED_LINK_PASSWORD, LINK_PASSWORD_WORDS, generateLinkPassword } from './linkPassword.ts';
import { MIN_LINK_PASSWORD_LENGTH } from './createLinkForm.ts';

describe('generateLinkPassword', () => {
  it('is a German word pair, the two-digit year and a number from 100 to 999', () => {
    const password = generateLinkPassword({ now: new Date(2026, 4, 1) });
    expect(password).toMatch(GENERATED_LINK_PASSWORD);
    const match = /^([A-Z][a-z]+)([A-Z][a-z]+)(\d{2})-(\d{3})$/.exec(password)!;
    expect(LINK_PASSWORD_WORDS.first).toContain(match[1]);
    expect(LINK_PASSWORD_WORDS.second).toContain(match[2]);
    expect(match[3]).toBe('26');
    expect(Number(match[4])).toBeGreaterThanOrEqual(100);
    expect(Number(match[4])).toBeLessThanOrEqual(999);
    expect(password.length).toBeGreaterThanOrEqual(MIN_LINK_PASSWORD_LENGTH);
  });

  it('pads years below ten and reaches both ends of every range', () => {
    // A scripted random source: each call returns the next value.
    const script = (values: number[]) => (array: Uint32Array) => {
      array[0] = values.shift() ?? 0;
      return array;
    };
    expect(generateLinkPassword({ now: new Date(2009, 0, 1), random: script([0, 0, 0]) })).toBe(
      `${LINK_PASSWORD_WORDS.first[0]}${LINK_PASSWORD_WORDS.second[0]}09-100`,
    );
    const last = generateLinkPassword({ now: new Date(2099, 0, 1), random: script([49, 49, 899]) });
    expect(last).toBe(`${LINK_PASSWORD_WORDS.first[49]}${LINK_PASSWORD_WORDS.second[49]}99-999`);
  });

  it('rejects random values in the biased tail instead of folding them with a modulo', () => {
    const values = [0xffff_ffff, 3, 0xffff_ffff, 4, 5];
    const random = (array: Uint32Array) => {
      array[0] = values.shift()!;
      return array;
    };
    expect(generateLinkPassword({ now: new Date(2030, 0, 1), random })).toBe(
      `${LINK_PASSWORD_WORDS.first[3]}${LINK_PASSWORD_WORDS.second[4]}30-105`,
    );
  });

  it('has about fifty distinct, plain-ASCII words on each side and varies', () => {
    for (const list of [LINK_PASSWORD_WORDS.first, LINK_PASSWORD_WORDS.second]) {
      expect(list).toHaveLength(50);
      expect(new Set(list).size).toBe(50);
      for (const word of list) expect(word).toMatch(/^[A-Z][a-z]+$/);
    }
    const seen = new Set(Array.from({ length: 50 }, () => generateLinkPassword()));
    expect(seen.size).toBeGreaterThan(40);
  });
});
