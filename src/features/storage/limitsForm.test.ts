import { describe, expect, it } from 'vitest';
import { limitsFormFrom, limitsPayload, MIB, validateLimits } from './limitsForm.ts';

const DEFAULTS = { storage_limit_bytes: 10 * 1024 * MIB, file_limit: 10_000, retention_days: null };

describe('the folder form\'s limits', () => {
  it('starts from the given settings, "no limit" where they are null', () => {
    expect(limitsFormFrom(DEFAULTS)).toMatchObject({
      storageLimited: true,
      storageLimitMb: '10240',
      filesLimited: true,
      fileLimit: '10000',
      deleteAfterDays: false,
      retentionDays: '',
    });
    expect(limitsFormFrom({ storage_limit_bytes: 1_500_000, file_limit: null, retention_days: 30 })).toMatchObject({
      storageLimitMb: '1.43',
      filesLimited: false,
      deleteAfterDays: true,
      retentionDays: '30',
    });
  });

  it('sends all three on create, null choosing "no limit" explicitly', () => {
    const values = { ...limitsFormFrom(DEFAULTS), storageLimited: false, retentionDays: '7', deleteAfterDays: true, storageLimitMb: '0.5' };
    expect(limitsPayload(values, 'create')).toEqual({ storage_limit_bytes: null, file_limit: 10_000, retention_days: 7 });
    expect(limitsPayload({ ...values, storageLimited: true }, 'create')).toMatchObject({ storage_limit_bytes: MIB / 2 });
  });

  it('sends on update only what changed, so an untouched odd limit survives', () => {
    const values = limitsFormFrom({ storage_limit_bytes: 1_500_000, file_limit: 20, retention_days: null });
    expect(limitsPayload(values, 'update')).toEqual({});
    expect(limitsPayload({ ...values, fileLimit: '25' }, 'update')).toEqual({ file_limit: 25 });
    expect(limitsPayload({ ...values, filesLimited: false }, 'update')).toEqual({ file_limit: null });
  });

  it('sends nothing when the defaults could not be loaded (the server\'s apply)', () => {
    expect(limitsPayload(null, 'create')).toEqual({});
  });

  it.each([
    [{ storageLimitMb: '0' }, 'storageLimitMb'],
    [{ storageLimitMb: '-3' }, 'storageLimitMb'],
    [{ storageLimitMb: '1e3' }, 'storageLimitMb'],
    [{ fileLimit: '2.5' }, 'fileLimit'],
    [{ fileLimit: '0' }, 'fileLimit'],
    [{ deleteAfterDays: true, retentionDays: '' }, 'retentionDays'],
  ])('refuses %j', (change, field) => {
    const errors = validateLimits({ ...limitsFormFrom(DEFAULTS), ...change });
    expect(Object.keys(errors)).toEqual([field]);
  });

  it('does not check a value whose "no limit" is chosen', () => {
    expect(validateLimits({ ...limitsFormFrom(DEFAULTS), storageLimited: false, storageLimitMb: 'nonsense' })).toEqual({});
  });
});
