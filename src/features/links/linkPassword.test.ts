import { describe, expect, it } from 'vitest';
import { GENERATED_LINK_PASSWORD, generateLinkPassword } from './linkPassword.ts';
import { LINK_PASSWORD_NOUNS } from './linkPasswordNouns.ts';
import { MIN_LINK_PASSWORD_LENGTH } from './createLinkForm.ts';

const PAIR = /^([A-Z][a-z]+)([A-Z][a-z]+)(\d{2})-(\d{3})$/;
/** A scripted random source: each call returns the next value. */
const script = (values: number[]) => (array: Uint32Array) => {
  array[0] = values.shift() ?? 0;
  return array;
};

describe('generateLinkPassword', () => {
  it('is a pair of two different German nouns of the list, the two-digit year and a number from 100 to 999', () => {
    for (let i = 0; i < 200; i++) {
      const password = generateLinkPassword({ now: new Date(2026, 4, 1) });
      expect(password).toMatch(GENERATED_LINK_PASSWORD);
      const match = PAIR.exec(password)!;
      expect(LINK_PASSWORD_NOUNS).toContain(match[1]);
      expect(LINK_PASSWORD_NOUNS).toContain(match[2]);
      expect(match[1]).not.toBe(match[2]);
      expect(match[3]).toBe('26');
      expect(Number(match[4])).toBeGreaterThanOrEqual(100);
      expect(Number(match[4])).toBeLessThanOrEqual(999);
      expect(password.length).toBeGreaterThanOrEqual(MIN_LINK_PASSWORD_LENGTH);
    }
  });

  it('pads years below ten, reaches both ends of every range, and never pairs a word with itself', () => {
    const words = LINK_PASSWORD_NOUNS;
    const last = words.length - 1;
    expect(generateLinkPassword({ now: new Date(2009, 0, 1), random: script([0, 0, 0]) })).toBe(`${words[0]}${words[1]}09-100`);
    expect(generateLinkPassword({ now: new Date(2099, 0, 1), random: script([last, last - 1, 899]) })).toBe(`${words[last]}${words[last - 1]}99-999`);
    // The second draw steps over the first word: index 5 then 5 gives word 6, 5 then 4 gives word 4.
    expect(generateLinkPassword({ now: new Date(2030, 0, 1), random: script([5, 5, 0]) })).toBe(`${words[5]}${words[6]}30-100`);
    expect(generateLinkPassword({ now: new Date(2030, 0, 1), random: script([5, 4, 0]) })).toBe(`${words[5]}${words[4]}30-100`);
  });

  it('rejects random values in the biased tail instead of folding them with a modulo', () => {
    expect(generateLinkPassword({ now: new Date(2030, 0, 1), random: script([0xffff_ffff, 3, 0xffff_ffff, 4, 5]) })).toBe(
      `${LINK_PASSWORD_NOUNS[3]}${LINK_PASSWORD_NOUNS[5]}30-105`,
    );
  });

  it('varies', () => {
    expect(new Set(Array.from({ length: 50 }, () => generateLinkPassword())).size).toBe(50);
  });
});

describe('the space of suggested link passwords (at least 2^31)', () => {
  it('the nouns are distinct, plain ASCII (folded), a capital and 2 to 11 lower-case letters', () => {
    expect(new Set(LINK_PASSWORD_NOUNS).size).toBe(LINK_PASSWORD_NOUNS.length);
    for (const word of LINK_PASSWORD_NOUNS) expect(word).toMatch(/^[A-Z][a-z]{2,11}$/);
  });

  it('every pair reads back as exactly its two words, so each suggestion stands for one choice', () => {
    // The second word starts at the second capital: a pair splits one way only. Checked on the
    // words that could make a split ambiguous (one word a prefix of a concatenation of others
    // cannot happen when every word is one capital followed by lower-case letters).
    const words = LINK_PASSWORD_NOUNS;
    for (let i = 0; i < words.length; i += 37) {
      for (let j = 0; j < words.length; j += 41) {
        if (i === j) continue;
        const match = /^([A-Z][a-z]+)([A-Z][a-z]+)$/.exec(`${words[i]}${words[j]}`)!;
        expect([match[1], match[2]]).toEqual([words[i], words[j]]);
      }
    }
  });

  it('computes the space from the list: ordered pairs of two different nouns times 900 numbers, at least 2^31', () => {
    const nouns = LINK_PASSWORD_NOUNS.length;
    const space = nouns * (nouns - 1) * 900;
    expect(space).toBeGreaterThanOrEqual(2 ** 31);
    // The figure docs/security.md uses for the offline cost of one suggestion.
    expect(nouns).toBe(2247);
    expect(Math.log2(space)).toBeCloseTo(32.08, 2);
  });
});
