// The QA-mode options and the guard that keeps the benchmarks off links not made for testing
// (bench/qa-target.ts, shared by bench:download and bench:upload).
import { describe, expect, it, vi } from 'vitest';
import { guardTestingNames, isTestingName, parseQaTarget, QaTargetError } from '../../bench/qa-target.ts';

function usageError(run: () => unknown): QaTargetError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QaTargetError);
    return error as QaTargetError;
  }
  throw new Error('expected a QaTargetError');
}

describe('parseQaTarget', () => {
  it('is undefined without --target (a local run)', () => {
    expect(parseQaTarget(['--size=5g'], {})).toBeUndefined();
  });

  it('takes a token with its keys, or a whole link URL, and the password from the environment only', () => {
    expect(parseQaTarget(['--target', 'https://files.example.com/', '--link', 'AbCdEf123456_-#12:a2V5'], { BENCH_LINK_PASSWORD: 's3cret-pass' })).toEqual({
      origin: 'https://files.example.com',
      token: 'AbCdEf123456_-',
      fragment: '12:a2V5',
      password: 's3cret-pass',
      force: false,
    });
    expect(parseQaTarget(['--target=https://files.example.com', '--link=https://files.example.com/download/AbCdEf123456#1:k', '--force'], {})).toMatchObject({
      token: 'AbCdEf123456',
      fragment: '1:k',
      password: undefined,
      force: true,
    });
  });

  it('refuses plain http except on loopback, a link of another host, and a missing --link', () => {
    expect(usageError(() => parseQaTarget(['--target', 'http://files.example.com', '--link', 'AbCdEf123456'], {})).code).toBe('USAGE');
    expect(parseQaTarget(['--target', 'http://127.0.0.1:8197', '--link', 'AbCdEf123456'], {})?.origin).toBe('http://127.0.0.1:8197');
    expect(usageError(() => parseQaTarget(['--target', 'https://a.example.com', '--link', 'https://b.example.com/download/AbCdEf123456'], {})).code).toBe('USAGE');
    expect(usageError(() => parseQaTarget(['--target', 'https://a.example.com'], {})).code).toBe('USAGE');
    expect(usageError(() => parseQaTarget(['--link', 'AbCdEf123456'], {})).code).toBe('USAGE');
  });
});

describe('guardTestingNames', () => {
  it('counts a name whose last segment starts with "bench", in any case', () => {
    expect(isTestingName('raw/Bench-1gib.bin')).toBe(true);
    expect(isTestingName('bench/invoice.pdf')).toBe(false);
  });

  it('refuses a link with any other name, or with no files, unless forced', () => {
    expect(() => guardTestingNames('the link', ['bench-a.bin', 'bench-b.bin'], false)).not.toThrow();
    expect(usageError(() => guardTestingNames('the link', ['bench-a.bin', 'contract.pdf'], false)).code).toBe('NOT_FOR_TESTING');
    expect(usageError(() => guardTestingNames('the link', [], false)).code).toBe('NOT_FOR_TESTING');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => guardTestingNames('the link', ['contract.pdf'], true)).not.toThrow();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
