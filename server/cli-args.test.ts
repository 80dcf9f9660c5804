import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './cli-args.ts';
import { CliUsageError } from './cli-errors.ts';

const OPTIONS = { force: { type: 'boolean', default: false }, backup: { type: 'string' } } as const;

describe('parseCommandLine', () => {
  it('gives the options and the positionals in any order', () => {
    const parsed = parseCommandLine(['a', '--backup', 'key.json', 'b', '--force'], OPTIONS);
    expect(parsed.values).toEqual({ force: true, backup: 'key.json' });
    expect(parsed.positionals).toEqual(['a', 'b']);
  });

  it.each([[['--nope']], [['--backup']], [['--force=yes']]])('answers %j with a usage error, not a crash', (argv) => {
    let thrown: unknown;
    try {
      parseCommandLine(argv, OPTIONS);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliUsageError);
    expect((thrown as CliUsageError).code).toBe('CLI_USAGE');
  });
});
