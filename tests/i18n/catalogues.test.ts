// The catalogues (docs/i18n.md): English is what the code says, every language has every message
// and no other, and each translation takes the same arguments as its English message. A language
// that misses a text would fall back to English at run time; here it fails instead.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, SOURCE_LANGUAGE } from '../../locales/languages.ts';
import { compileCatalogue } from '../../scripts/i18n/compile-catalogue.ts';

const LOCALES = new URL('../../locales/', import.meta.url);
const read = (code: string) => JSON.parse(readFileSync(new URL(`${code}.json`, LOCALES), 'utf8')) as Record<string, string>;
const english = read(SOURCE_LANGUAGE);

/** The arguments a message takes: name and kind (plural, select, number, date, tag...), nested ones too. */
function argumentsOf(elements: MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        found.add(`${element.value}:text`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        found.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        found.add(`${element.value}:${TYPE[element.type]}`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, found);
        break;
      case TYPE.tag:
        found.add(`<${element.value}>`);
        argumentsOf(element.children, found);
        break;
      default:
        break;
    }
  }
  return found;
}

/**
 * Messages that read the same in English and German: patterns without words, words both languages
 * use (Status, Name, Passkeys, Webhooks), an example address, and the spec's own German labels
 * (links.display.*). Any other message equal to its English is a text left untranslated.
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'a11y.folderCard.status',
  'a11y.pageTitle.document',
  'about.build.version',
  'dashboard.table.status',
  'errors.http.validationItem',
  'files.duration.hours',
  'files.duration.minutes',
  'files.duration.seconds',
  'files.tree.compactDate',
  'files.tree.name',
  'folders.access.allowedEmailsExample',
  'links.display.created',
  'links.display.validUntil',
  'links.item.field',
  'links.item.fileDownloads',
  'members.invite.displayNameLabel',
  'organisation.webhooks.title',
  'passkeys.section.title',
  'recipient.ready.fileButton',
  'team.dialog.personLabel',
]);

describe('the catalogues', () => {
  it('list exactly the languages of locales/languages.ts', () => {
    const files = readdirSync(LOCALES).filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length));
    expect(files.sort()).toEqual(LANGUAGES.map((language) => language.code).sort());
  });

  it('hold in English exactly the messages the code defines (npm run i18n:extract)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sealdrop-extract-')), 'en.json');
    const script = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts['i18n:extract'] as string;
    const command = script.replace('--out-file locales/en.json', `--out-file ${out}`);
    await promisify(execFile)('sh', ['-c', `npx ${command}`], { cwd: new URL('../..', import.meta.url).pathname });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(english);
  }, 60_000);

  it('each add less than 60 KiB gzip to the precached shell, compiled as the build compiles them', () => {
    for (const { code } of LANGUAGES) {
      const chunk = `export default ${JSON.stringify(compileCatalogue(read(code)))};`;
      expect(gzipSync(chunk, { level: 9 }).length, code).toBeLessThan(60 * 1024);
    }
  });

  it('parse as ICU MessageFormat', () => {
    for (const { code } of LANGUAGES) {
      for (const [id, message] of Object.entries(read(code))) {
        expect(() => parse(message), `${code} ${id}`).not.toThrow();
      }
    }
  });

  for (const { code } of LANGUAGES.filter((language) => language.code !== SOURCE_LANGUAGE)) {
    describe(code, () => {
      const translated = read(code);

      it('has every English message and no other', () => {
        expect(Object.keys(english).filter((id) => !(id in translated)), 'missing').toEqual([]);
        expect(Object.keys(translated).filter((id) => !(id in english)), 'not in English').toEqual([]);
      });

      it('gives every message the same arguments as English', () => {
        const differing = Object.keys(english)
          .filter((id) => id in translated)
          .filter((id) => {
            const expected = [...argumentsOf(parse(english[id]!))].sort();
            const actual = [...argumentsOf(parse(translated[id]!))].sort();
            return JSON.stringify(expected) !== JSON.stringify(actual);
          });
        expect(differing).toEqual([]);
      });

      it('translates every message that has words to translate (a copied English text fails)', () => {
        const untranslated = Object.keys(english).filter((id) => translated[id] === english[id] && !SAME_IN_EVERY_LANGUAGE.has(id));
        expect(untranslated).toEqual([]);
      });

      it('leaves no message empty', () => {
        expect(Object.entries(translated).filter(([, message]) => message.trim() === '').map(([id]) => id)).toEqual([]);
      });
    });
  }
});
