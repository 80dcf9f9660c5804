// Configuration from environment variables: defaults, and a clear one-line refusal of bad values.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

const cwd = '/srv/sealdrop';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, cwd);
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe('/srv/sealdrop/data');
    expect(config.database).toEqual({ kind: 'sqlite', file: '/srv/sealdrop/data/sealdrop.db' });
    expect(config.staticDir).toBe('/srv/sealdrop/dist');
    expect(config.sessionTtlMs).toBe(12 * 3_600_000);
    expect(config.cookieSecure).toBe(false);
    expect(config.trustProxy).toBe(false);
    expect(config.rateLimit).toEqual({
      accountMaxFailures: 10,
      ipMaxFailures: 50,
      preloginPerIp: 300,
      linkRecipientsPerIp: 100,
      linkRecipientsPerLink: 300,
      windowMs: 15 * 60_000,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/sealdrop',
        DATABASE_URL: 'postgres://app@db/sealdrop',
        DATABASE_SCHEMA: 'tenant_1',
        WEBHOOK_SIGNING_KEY: 'w'.repeat(44),
        ACTIVITY_CHAIN_KEY: 'a'.repeat(44),
        ACTIVITY_ANCHOR_FILE: 'anchors/activity.log',
        STATIC_DIR: 'build',
        SESSION_TTL_HOURS: '1.5',
        COOKIE_SECURE: 'true',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: '1',
        RATE_LIMIT_ACCOUNT_FAILURES: '5',
        RATE_LIMIT_IP_FAILURES: '20',
        RATE_LIMIT_PRELOGIN_PER_IP: '40',
        RATE_LIMIT_WINDOW_MINUTES: '30',
        RATE_LIMIT_LINK_RECIPIENTS_PER_IP: '7',
        RATE_LIMIT_LINK_RECIPIENTS_PER_LINK: '9',
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/sealdrop',
      database: { kind: 'postgres', url: 'postgres://app@db/sealdrop', schema: 'tenant_1' },
      staticDir: '/srv/sealdrop/build',
      sessionTtlMs: 5_400_000,
      cookieSecure: true,
      logLevel: 'warn',
      trustProxy: 1,
      rateLimit: { accountMaxFailures: 5, ipMaxFailures: 20, preloginPerIp: 40, linkRecipientsPerIp: 7, linkRecipientsPerLink: 9, windowMs: 30 * 60_000 },
      activity: { chainKey: 'a'.repeat(44), anchorFile: '/srv/sealdrop/anchors/activity.log' },
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }, cwd).port).toBe(8080);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT', 'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT', 'Invalid configuration: PORT must be at most 65535 (got "70000")'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', undefined],
    [{ DATABASE_SCHEMA: 'x' }, 'DATABASE_SCHEMA', undefined],
    [{ DATABASE_URL: 'postgres://h/d', DATABASE_SCHEMA: 'Bad-Name' }, 'DATABASE_SCHEMA', undefined],
    [{ SESSION_TTL_HOURS: '0' }, 'SESSION_TTL_HOURS', undefined],
    [{ COOKIE_SECURE: 'yes' }, 'COOKIE_SECURE', undefined],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', undefined],
    [{ RATE_LIMIT_WINDOW_MINUTES: '-1' }, 'RATE_LIMIT_WINDOW_MINUTES', undefined],
  ])('refuses %o naming %s', (env, variable, message) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
    if (message) expect(error.message).toBe(message);
  });
});

describe('loadConfig: addresses for the open internet', () => {
  it('refuses SMTP_URL without PUBLIC_URL, saying what to set (a mailed link must not come from a Host header)', () => {
    const error = configError({ SMTP_URL: 'smtp://mail.example.com:587' });
    expect(error.variable).toBe('PUBLIC_URL');
    expect(error.message).toBe(
      'Invalid configuration: PUBLIC_URL is required with SMTP_URL: set it to the address people open, e.g. PUBLIC_URL=https://files.example.com (links in e-mails are built from it)',
    );
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com:587', PUBLIC_URL: 'https://files.example.com' }, cwd).publicUrl).toBe('https://files.example.com');
  });

  it('starts with no settings at all: no PUBLIC_URL, no mail, no networks allowed past the webhook policy', () => {
    const config = loadConfig({}, cwd);
    expect(config.publicUrl).toBeNull();
    expect(config.mail.smtpUrl).toBeNull();
    expect(config.webhooks.allowedNetworks).toEqual([]);
  });

  it('reads WEBHOOK_ALLOWED_NETWORKS as a CIDR list and refuses anything else', () => {
    expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32, ::1/128,10.20.0.0/16' }, cwd).webhooks.allowedNetworks).toEqual(['127.0.0.1/32', '::1/128', '10.20.0.0/16']);
    for (const bad of ['127.0.0.1', '10.0.0.0/33', '::1/129', 'localhost/32', '10.0.0.0/8;rm']) {
      expect(configError({ WEBHOOK_ALLOWED_NETWORKS: bad }).variable, bad).toBe('WEBHOOK_ALLOWED_NETWORKS');
    }
  });
});

describe('loadConfig: the per-install keys and the activity anchor', () => {
  const keys = { WEBHOOK_SIGNING_KEY: 'w'.repeat(44), ACTIVITY_CHAIN_KEY: 'a'.repeat(44) };

  it('needs no key with SQLite: key files in DATA_DIR, the anchor file beside the database', () => {
    const config = loadConfig({}, cwd);
    expect(config.activity).toEqual({ chainKey: null, anchorFile: '/srv/sealdrop/data/activity-anchor.log' });
    expect(config.webhooks.signingKey).toBeNull();
  });

  it('refuses PostgreSQL without the shared keys, naming the settings to set', () => {
    const neither = configError({ DATABASE_URL: 'postgres://app@db/sealdrop' });
    expect(neither.variable).toBe('WEBHOOK_SIGNING_KEY and ACTIVITY_CHAIN_KEY');
    expect(neither.message).toBe(
      'Invalid configuration: WEBHOOK_SIGNING_KEY and ACTIVITY_CHAIN_KEY must be set with DATABASE_URL: every process of a PostgreSQL ' +
        'deployment needs the same WEBHOOK_SIGNING_KEY and ACTIVITY_CHAIN_KEY (make each with openssl rand -base64 32, a different value for each setting)',
    );
    expect(configError({ DATABASE_URL: 'postgres://app@db/sealdrop', WEBHOOK_SIGNING_KEY: keys.WEBHOOK_SIGNING_KEY }).variable).toBe('ACTIVITY_CHAIN_KEY');
    expect(configError({ DATABASE_URL: 'postgres://app@db/sealdrop', ACTIVITY_CHAIN_KEY: keys.ACTIVITY_CHAIN_KEY }).variable).toBe('WEBHOOK_SIGNING_KEY');
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db/sealdrop', ...keys }, cwd).activity.chainKey).toBe(keys.ACTIVITY_CHAIN_KEY);
  });

  it('refuses a chain key equal to the webhook key, a short one, and an anchor file that is the database', () => {
    const same = configError({ WEBHOOK_SIGNING_KEY: 'k'.repeat(40), ACTIVITY_CHAIN_KEY: 'k'.repeat(40) });
    expect(same.message).toBe('Invalid configuration: ACTIVITY_CHAIN_KEY must differ from WEBHOOK_SIGNING_KEY (the activity log shares no key with webhooks)');
    const short = configError({ ACTIVITY_CHAIN_KEY: 'short-secret' });
    expect(short.variable).toBe('ACTIVITY_CHAIN_KEY');
    expect(short.message).not.toContain('short-secret');
    expect(configError({ WEBHOOK_SIGNING_KEY: 'too-short-secret' }).message).not.toContain('too-short-secret');
    expect(configError({ ACTIVITY_ANCHOR_FILE: 'data/sealdrop.db' }).variable).toBe('ACTIVITY_ANCHOR_FILE');
    expect(configError({ ACTIVITY_ANCHOR_FILE: 'data/sealdrop.db-wal' }).variable).toBe('ACTIVITY_ANCHOR_FILE');
  });
});

describe('loadConfig: the blob store', () => {
  const s3 = {
    BLOB_STORE: 's3',
    S3_BUCKET: 'sealdrop-files',
    AWS_REGION: 'eu-central-1',
    AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9400/',
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-example-secret',
  };

  it('is the disk by default, whatever AWS variables other programs left set', () => {
    expect(loadConfig({}, cwd).blobStore).toEqual({ kind: 'disk' });
    expect(loadConfig({ AWS_REGION: 'not a region!', AWS_ENDPOINT_URL_S3: 'nonsense' }, cwd).blobStore).toEqual({ kind: 'disk' });
  });

  it('reads the S3 settings from S3_BUCKET, S3_FORCE_PATH_STYLE and the AWS SDK variables', () => {
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'true' }, cwd).blobStore).toEqual({
      kind: 's3',
      bucket: 'sealdrop-files',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9400',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI-example-secret' },
    });
    // Without keys and endpoint: AWS itself, keys from the SDK's other sources (roles, shared files).
    const bare = loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', AWS_REGION: 'us-east-1' }, cwd).blobStore;
    expect(bare).toEqual({ kind: 's3', bucket: 'b-1', region: 'us-east-1', endpoint: null, forcePathStyle: false, credentials: null });
  });

  it('refuses incomplete or bad S3 settings with one line naming the variable, never showing the secret', () => {
    expect(configError({ BLOB_STORE: 'nfs' }).message).toBe('Invalid configuration: BLOB_STORE must be disk or s3 (got "nfs")');
    expect(configError({ ...s3, S3_BUCKET: '' }).message).toBe('Invalid configuration: S3_BUCKET is required with BLOB_STORE=s3');
    expect(configError({ ...s3, S3_BUCKET: 'Bad_Bucket' }).variable).toBe('S3_BUCKET');
    expect(configError({ ...s3, AWS_REGION: '' }).message).toBe('Invalid configuration: AWS_REGION is required with BLOB_STORE=s3 (e.g. us-east-1)');
    expect(configError({ ...s3, AWS_ENDPOINT_URL_S3: 'ftp://x' }).variable).toBe('AWS_ENDPOINT_URL_S3');
    expect(configError({ ...s3, AWS_ACCESS_KEY_ID: '' }).message).toBe(
      'Invalid configuration: AWS_ACCESS_KEY_ID is required when the other AWS key variable is set',
    );
    const secretMissing = configError({ ...s3, AWS_SECRET_ACCESS_KEY: '' });
    expect(secretMissing.variable).toBe('AWS_SECRET_ACCESS_KEY');
    expect(configError({ ...s3, S3_FORCE_PATH_STYLE: 'yes' }).variable).toBe('S3_FORCE_PATH_STYLE');
    expect(configError({ S3_BUCKET: 'sealdrop-files' }).message).toBe('Invalid configuration: S3_BUCKET is set but BLOB_STORE is not s3');
  });
});

describe('server start-up with a bad value', () => {
  it('refuses to start on PostgreSQL without the shared keys, before connecting', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      cwd: root,
      // Port 1 on loopback: nothing listens, so a start that got as far as connecting would fail differently.
      env: { ...process.env, PORT: '0', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DATABASE_SCHEMA: '', WEBHOOK_SIGNING_KEY: '', ACTIVITY_CHAIN_KEY: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid configuration: WEBHOOK_SIGNING_KEY and ACTIVITY_CHAIN_KEY must be set with DATABASE_URL/);
  });

  it('exits with status 1 and one line naming the variable', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: '', DATABASE_SCHEMA: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "eighty")',
    );
  });
});
