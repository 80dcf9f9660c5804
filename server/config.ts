// Server configuration, read once from environment variables and validated with zod, so a bad
// value stops the process at start with one line naming the variable instead of failing later.
// Every variable is documented in docs/operations.md.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { codedError } from '../contract/coded-error.ts';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema: string | null };

export interface RateLimitConfig {
  /** Failed attempts allowed per account within the window, per kind (login, code, password). */
  accountMaxFailures: number;
  /** Failed attempts allowed per client IP within the window, per kind. */
  ipMaxFailures: number;
  /** Pre-login calls allowed per client IP within the window (every call counts). */
  preloginPerIp: number;
  /** New recipients of download links allowed per client IP within the window (all links). */
  linkRecipientsPerIp: number;
  /** New recipients allowed per download link within the window. */
  linkRecipientsPerLink: number;
  windowMs: number;
}

/** Outgoing mail (verification codes). Without SMTP_URL, messages go to DATA_DIR/outbox as .eml files. */
export interface MailConfig {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
}

/** Anonymous uploads: size limit, grant lifetime, code-request limits and the sweep of abandoned uploads. */
export interface UploadConfig {
  /** Largest plaintext file accepted, in bytes (5120 MiB unless lowered with UPLOAD_MAX_FILE_MB). */
  maxFileBytes: number;
  /** How long passing the gates of an upload link stays valid. */
  grantTtlMs: number;
  /** Verification-code requests allowed per e-mail address (per link) within the rate-limit window. */
  codeRequestsPerAddress: number;
  /** Verification-code requests allowed per client IP within the rate-limit window. */
  codeRequestsPerIp: number;
  /** An upload with no activity for this long is abandoned and swept. */
  abandonAfterMs: number;
  /** How often the sweep runs; 0 turns the timer off (the sweep can still be run by hand). */
  sweepIntervalMs: number;
  /** Free bytes uploads must leave on the disk store's file system (STORAGE_RESERVE_MB). */
  reserveBytes: number;
}

/**
 * Where encrypted file contents live: DATA_DIR/blobs (the default) or an S3 bucket. For S3 the
 * endpoint, region and keys are the AWS SDK's own variables; keys may be left to the SDK's other
 * sources (shared config, instance roles) by setting neither.
 */
export type BlobStoreConfig =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** AWS_ENDPOINT_URL_S3, for S3-compatible stores; null: AWS itself. */
      endpoint: string | null;
      /** Path-style addressing (http://host/bucket/key), which most self-hosted stores need. */
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

/**
 * What a new folder gets when its form names no limits (docs/operations.md, 'Folder limits'): null
 * means no limit (and for retention, files are kept until deleted).
 */
export interface FolderDefaults {
  /** FOLDER_STORAGE_LIMIT_MB in bytes: the plaintext bytes of its files and unfinished uploads. */
  storageLimitBytes: number | null;
  /** FOLDER_FILE_LIMIT: files and unfinished uploads. */
  fileLimit: number | null;
  /** FOLDER_RETENTION_DAYS: files are deleted this many days after their upload. */
  retentionDays: number | null;
}

/**
 * Where /metrics is served: with a token, `Authorization: Bearer <token>` is required; with a port,
 * on a listener of its own (METRICS_HOST, default HOST) instead of the app's port. At least one is set.
 */
export interface MetricsConfig {
  token: string | null;
  port: number | null;
  host: string;
}

export interface ShutdownConfig {
  /** After the signal: /readyz answers 503 while requests are still served, so a balancer drains the process. */
  drainMs: number;
  /** After the signal: the process has exited by then; uploads still streaming are cut at a flushed offset before it. */
  graceMs: number;
}

/**
 * Single sign-on with an OpenID Connect provider (docs/operations.md, "Single sign-on"); null when
 * OIDC_ISSUER is unset. Who may get an account: people with an open invitation, and, when set,
 * anyone with a verified address in `allowedDomains` or a group in `allowedGroups`.
 */
export interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page's button says after "Sign in with". */
  name: string;
  /** PUBLIC_URL + /api/auth/sso/callback, registered at the provider. */
  redirectUri: string;
  /** PUBLIC_URL + /login, where the provider sends the browser back after its sign-out. */
  postLogoutRedirectUri: string;
  scopes: string;
  allowedDomains: string[];
  allowedGroups: string[];
  /** Members of this group are organisation admins (made so at sign-in); null: none by group. */
  adminGroup: string | null;
  groupsClaim: string;
  /** How long a session started by single sign-on lasts at most. */
  sessionTtlMs: number;
  /** Plain http is accepted only for a provider on a loopback address (tests, trying it by hand). */
  allowInsecure: boolean;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  staticDir: string;
  sessionTtlMs: number;
  cookieSecure: boolean;
  /**
   * OLD_SCHEME_SIGN_IN: 'auto' keeps the password sign-in of accounts made before zero-knowledge
   * sign-in open until none is left (then it closes for good); 'off' closes it now.
   */
  oldSchemeSignIn: 'auto' | 'off';
  logLevel: LogLevel;
  trustProxy: boolean | number | string;
  rateLimit: RateLimitConfig;
  mail: MailConfig;
  upload: UploadConfig;
  blobStore: BlobStoreConfig;
  folderDefaults: FolderDefaults;
  /** Origin of published links (download links' full_url), e.g. https://files.example.com; null: the request's. */
  publicUrl: string | null;
  sso: SsoConfig | null;
  /** PASSWORD_SIGN_IN=off (only with single sign-on): accounts sign in through the provider only. */
  passwordSignIn: boolean;
  /** Upload notifications (server/notifications): quiet time, digest period, how often to check (0: never). */
  notify: { quietMs: number; digestMs: number; checkIntervalMs: number };
  /** How long activity log entries are kept. */
  activityRetentionMs: number;
  /**
   * The activity log's key (ACTIVITY_CHAIN_KEY; null: DATA_DIR/activity-chain.key) and the file its
   * head checkpoints are appended to (ACTIVITY_ANCHOR_FILE; DATA_DIR/activity-anchor.log).
   */
  activity: { chainKey: string | null; anchorFile: string };
  /**
   * Signed webhooks (server/webhooks): the signing key (null: DATA_DIR/webhook-signing.key), retry
   * timer, request timeout, and the networks (CIDR) that may receive despite being loopback or private.
   */
  webhooks: { signingKey: string | null; checkIntervalMs: number; timeoutMs: number; allowedNetworks: string[] };
  /** Prometheus metrics (server/metrics): null when off (neither METRICS_TOKEN nor METRICS_PORT set). */
  metrics: MetricsConfig | null;
  /** Graceful shutdown on SIGTERM/SIGINT (server/lifecycle, docs/operations.md "Health, metrics and shutdown"). */
  shutdown: ShutdownConfig;
  /**
   * BENCH_DISCARD_ROUTE: serve POST /api/bench/discard, which reads a request body and throws it
   * away (the transport ceiling of `npm run bench:upload`). Off unless set; never in production.
   */
  benchDiscardRoute: boolean;
}

export class ConfigError extends codedError('CONFIG_INVALID') {
  constructor(readonly variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

/** The spec's maximum upload file size (section 9): 5120 MB, meaning MiB. */
export const MAX_UPLOAD_FILE_MB = 5120;

// Values of these variables are never repeated in an error message.
const SECRET_VARIABLES = new Set(['AWS_SECRET_ACCESS_KEY', 'METRICS_TOKEN', 'WEBHOOK_SIGNING_KEY', 'ACTIVITY_CHAIN_KEY']);
// Per-install keys that DATA_DIR files provide only to processes sharing one DATA_DIR; with
// PostgreSQL (several processes, usually several machines) each must be set, the same everywhere.
const SHARED_KEY_VARIABLES = ['WEBHOOK_SIGNING_KEY', 'ACTIVITY_CHAIN_KEY'] as const;
// S3's bucket naming rules (lower-case letters, digits, dots and hyphens, 3 to 63 characters).
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function integer(min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

function positiveNumber(max: number) {
  return z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a positive number')
    .transform(Number)
    .pipe(z.number().positive('must be greater than 0').max(max, `must be at most ${max}`));
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

// Keys are the environment variable names, so an issue's path names the variable in the message.
const envSchema = z.object({
  PORT: integer(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(SCHEMA_NAME, 'must be a lower-case SQL identifier (letters, digits, underscore)')
    .optional(),
  STATIC_DIR: z.string().min(1).default('./dist'),
  SESSION_TTL_HOURS: positiveNumber(24 * 90).default(12),
  COOKIE_SECURE: booleanFlag.default(false),
  OLD_SCHEME_SIGN_IN: z.enum(['auto', 'off'], { error: 'must be auto or off' }).default('auto'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TRUST_PROXY: z.string().min(1).optional(),
  RATE_LIMIT_ACCOUNT_FAILURES: integer(1, 1_000_000).default(10),
  RATE_LIMIT_IP_FAILURES: integer(1, 1_000_000).default(50),
  RATE_LIMIT_PRELOGIN_PER_IP: integer(1, 1_000_000).default(300),
  RATE_LIMIT_WINDOW_MINUTES: integer(1, 24 * 60).default(15),
  RATE_LIMIT_LINK_RECIPIENTS_PER_IP: integer(1, 1_000_000).default(100),
  RATE_LIMIT_LINK_RECIPIENTS_PER_LINK: integer(1, 1_000_000).default(300),
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Sealdrop <noreply@localhost>'),
  UPLOAD_MAX_FILE_MB: integer(1, MAX_UPLOAD_FILE_MB).default(MAX_UPLOAD_FILE_MB),
  UPLOAD_GRANT_HOURS: positiveNumber(24 * 30).default(24),
  UPLOAD_CODE_REQUESTS_PER_ADDRESS: integer(1, 1_000_000).default(5),
  UPLOAD_CODE_REQUESTS_PER_IP: integer(1, 1_000_000).default(20),
  UPLOAD_ABANDON_HOURS: positiveNumber(24 * 365).default(24),
  UPLOAD_SWEEP_INTERVAL_MINUTES: integer(0, 24 * 60).default(60),
  // Sizing in docs/operations.md ('Disk space'): room for the database, its WAL and the admin's work.
  STORAGE_RESERVE_MB: integer(0, 1024 * 1024).default(64),
  // Defaults of new folders; 0 means no limit (docs/operations.md, 'Folder limits'). A fresh install
  // is bounded: one leaked upload link fills at most 10 GiB.
  FOLDER_STORAGE_LIMIT_MB: integer(0, 1024 * 1024 * 1024).default(10 * 1024),
  FOLDER_FILE_LIMIT: integer(0, 100_000_000).default(10_000),
  FOLDER_RETENTION_DAYS: integer(0, 36_500).default(0),
  NOTIFY_QUIET_SECONDS: integer(0, 7 * 24 * 3600).default(300),
  NOTIFY_DIGEST_HOURS: integer(1, 24 * 31).default(24),
  NOTIFY_CHECK_SECONDS: integer(0, 24 * 3600).default(30),
  ACTIVITY_RETENTION_DAYS: integer(1, 36_500).default(365),
  ACTIVITY_CHAIN_KEY: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  ACTIVITY_ANCHOR_FILE: z.string().min(1).optional(),
  WEBHOOK_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  WEBHOOK_CHECK_SECONDS: integer(0, 24 * 3600).default(10),
  WEBHOOK_TIMEOUT_SECONDS: integer(1, 300).default(10),
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== ''))
    .pipe(z.array(z.string().refine(isCidr, 'must be a comma-separated list of networks such as 127.0.0.1/32,::1/128')))
    .optional(),
  BLOB_STORE: z.enum(['disk', 's3'], { error: 'must be disk or s3' }).default('disk'),
  S3_BUCKET: z.string().regex(BUCKET_NAME, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)').optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  BENCH_DISCARD_ROUTE: booleanFlag.default(false),
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9._~+/=-]{32,512}$/, 'must be 32 to 512 characters of letters, digits and ._~+/=- (e.g. openssl rand -hex 32)')
    .optional(),
  METRICS_PORT: integer(1, 65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  SHUTDOWN_DRAIN_SECONDS: integer(0, 3600).default(0),
  SHUTDOWN_GRACE_SECONDS: integer(1, 3600).default(30),
  AWS_ENDPOINT_URL_S3: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http:// or https:// URL without a path, e.g. https://s3.example.com')
    .optional(),
  AWS_REGION: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be a region name such as us-east-1').optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  OIDC_ISSUER: z.string().url('must be the provider\'s issuer URL, e.g. https://login.example.com/realms/staff').optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(255).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(1000).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).optional(),
  OIDC_SCOPES: z.string().regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be scopes separated by single spaces').default('openid email profile'),
  OIDC_ALLOWED_DOMAINS: commaList(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be domains separated by commas, e.g. example.com,example.org'),
  OIDC_ALLOWED_GROUPS: commaList(/^[^,\s][^,]*$/, 'must be group names separated by commas'),
  OIDC_ADMIN_GROUP: z.string().trim().min(1).max(255).optional(),
  OIDC_GROUPS_CLAIM: z.string().regex(/^[A-Za-z0-9_:./-]{1,100}$/, 'must be a claim name such as groups').default('groups'),
  SSO_SESSION_HOURS: z.coerce.number().positive('must be a positive number of hours').max(24 * 30).default(12),
  PASSWORD_SIGN_IN: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http:// or https:// origin without a path, e.g. https://files.example.com')
    .transform((value, context) => {
      try {
        return new URL(value).origin;
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a valid http:// or https:// origin' });
        return z.NEVER;
      }
    })
    .optional(),
});

/** A comma-separated list of values matching `pattern` (spaces around commas allowed); [] when unset. */
function commaList(pattern: RegExp, message: string) {
  return z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''))
    .refine((items) => items.every((item) => pattern.test(item)), message)
    .optional();
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function ssoConfig(e: z.infer<typeof envSchema>): SsoConfig | null {
  if (e.OIDC_ISSUER === undefined) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ALLOWED_DOMAINS', 'OIDC_ALLOWED_GROUPS', 'OIDC_ADMIN_GROUP'] as const) {
      if (e[name] !== undefined) throw new ConfigError(name, 'needs OIDC_ISSUER (single sign-on is configured by the issuer first)');
    }
    if (e.PASSWORD_SIGN_IN === 'off') throw new ConfigError('PASSWORD_SIGN_IN', 'can be off only with single sign-on (OIDC_ISSUER): nobody could sign in');
    return null;
  }
  const issuer = new URL(e.OIDC_ISSUER);
  const allowInsecure = LOOPBACK_HOSTS.has(issuer.host.replace(/:\d+$/, ''));
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && allowInsecure)) {
    throw new ConfigError('OIDC_ISSUER', 'must be an https:// URL (plain http only for a provider on a loopback address)');
  }
  if (e.OIDC_CLIENT_ID === undefined) throw new ConfigError('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER (the client id registered at the provider)');
  if (e.OIDC_CLIENT_SECRET === undefined) throw new ConfigError('OIDC_CLIENT_SECRET', 'is required with OIDC_ISSUER (the client secret registered at the provider)');
  if (e.PUBLIC_URL === undefined) {
    throw new ConfigError('PUBLIC_URL', 'is required with OIDC_ISSUER: the provider sends people back to PUBLIC_URL/api/auth/sso/callback');
  }
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME ?? issuer.hostname,
    redirectUri: `${e.PUBLIC_URL}/api/auth/sso/callback`,
    postLogoutRedirectUri: `${e.PUBLIC_URL}/login`,
    scopes: e.OIDC_SCOPES,
    allowedDomains: (e.OIDC_ALLOWED_DOMAINS ?? []).map((domain) => domain.toLowerCase()),
    allowedGroups: e.OIDC_ALLOWED_GROUPS ?? [],
    adminGroup: e.OIDC_ADMIN_GROUP ?? null,
    groupsClaim: e.OIDC_GROUPS_CLAIM,
    sessionTtlMs: Math.round(e.SSO_SESSION_HOURS * 3_600_000),
    allowInsecure,
  };
}

/** "address/prefix" with an IPv4 or IPv6 address and a prefix length that fits it. */
function isCidr(value: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!match) return false;
  const family = isIP(match[1]!);
  return family !== 0 && Number(match[2]) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: "true"/"false", a hop count, or a comma-separated list of addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * Reads the configuration from `env` (default process.env). Empty strings count as unset.
 * Throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const input: Record<string, string> = {};
  const s3 = env.BLOB_STORE === 's3';
  for (const key of Object.keys(envSchema.shape)) {
    // The AWS SDK's variables may be set for other programs; they are ours only with BLOB_STORE=s3.
    if (key.startsWith('AWS_') && !s3) continue;
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const got = input[variable];
    const shown = got === undefined || SECRET_VARIABLES.has(variable) ? '' : ` (got "${got}")`;
    throw new ConfigError(variable, `${issue?.message ?? 'is invalid'}${shown}`);
  }
  const e = parsed.data;
  if (e.DATABASE_SCHEMA !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError('DATABASE_SCHEMA', 'needs DATABASE_URL (it selects a PostgreSQL schema)');
  }
  if (e.SHUTDOWN_DRAIN_SECONDS >= e.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError('SHUTDOWN_DRAIN_SECONDS', `must be less than SHUTDOWN_GRACE_SECONDS (${e.SHUTDOWN_GRACE_SECONDS})`);
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('METRICS_PORT', 'must differ from PORT (leave it unset to serve /metrics on PORT with METRICS_TOKEN)');
  }
  // A message or webhook is read far from the request that caused it: its addresses must come from
  // the operator, never from a Host header a stranger chose.
  if (e.SMTP_URL !== undefined && e.PUBLIC_URL === undefined) {
    throw new ConfigError('PUBLIC_URL', 'is required with SMTP_URL: set it to the address people open, e.g. PUBLIC_URL=https://files.example.com (links in e-mails are built from it)');
  }
  if (e.METRICS_HOST !== undefined && e.METRICS_PORT === undefined) {
    throw new ConfigError('METRICS_HOST', 'needs METRICS_PORT (it is the address of the metrics listener)');
  }
  const blobStore = blobStoreConfig(e);
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const database: DatabaseConfig =
    e.DATABASE_URL === undefined
      ? { kind: 'sqlite', file: path.join(dataDir, 'sealdrop.db') }
      : { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA ?? null };
  const activity = activityConfig(e, dataDir, cwd, database);
  const sso = ssoConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    staticDir: path.resolve(cwd, e.STATIC_DIR),
    sessionTtlMs: Math.round(e.SESSION_TTL_HOURS * 3_600_000),
    cookieSecure: e.COOKIE_SECURE,
    oldSchemeSignIn: e.OLD_SCHEME_SIGN_IN,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimit: {
      accountMaxFailures: e.RATE_LIMIT_ACCOUNT_FAILURES,
      ipMaxFailures: e.RATE_LIMIT_IP_FAILURES,
      preloginPerIp: e.RATE_LIMIT_PRELOGIN_PER_IP,
      linkRecipientsPerIp: e.RATE_LIMIT_LINK_RECIPIENTS_PER_IP,
      linkRecipientsPerLink: e.RATE_LIMIT_LINK_RECIPIENTS_PER_LINK,
      windowMs: e.RATE_LIMIT_WINDOW_MINUTES * 60_000,
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
    },
    upload: {
      maxFileBytes: e.UPLOAD_MAX_FILE_MB * 1024 * 1024,
      grantTtlMs: Math.round(e.UPLOAD_GRANT_HOURS * 3_600_000),
      codeRequestsPerAddress: e.UPLOAD_CODE_REQUESTS_PER_ADDRESS,
      codeRequestsPerIp: e.UPLOAD_CODE_REQUESTS_PER_IP,
      abandonAfterMs: Math.round(e.UPLOAD_ABANDON_HOURS * 3_600_000),
      sweepIntervalMs: e.UPLOAD_SWEEP_INTERVAL_MINUTES * 60_000,
      reserveBytes: e.STORAGE_RESERVE_MB * 1024 * 1024,
    },
    notify: {
      quietMs: e.NOTIFY_QUIET_SECONDS * 1000,
      digestMs: e.NOTIFY_DIGEST_HOURS * 3_600_000,
      checkIntervalMs: e.NOTIFY_CHECK_SECONDS * 1000,
    },
    activityRetentionMs: e.ACTIVITY_RETENTION_DAYS * 86_400_000,
    activity,
    webhooks: {
      signingKey: e.WEBHOOK_SIGNING_KEY ?? null,
      checkIntervalMs: e.WEBHOOK_CHECK_SECONDS * 1000,
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      allowedNetworks: e.WEBHOOK_ALLOWED_NETWORKS ?? [],
    },
    blobStore,
    folderDefaults: {
      storageLimitBytes: e.FOLDER_STORAGE_LIMIT_MB === 0 ? null : e.FOLDER_STORAGE_LIMIT_MB * 1024 * 1024,
      fileLimit: e.FOLDER_FILE_LIMIT === 0 ? null : e.FOLDER_FILE_LIMIT,
      retentionDays: e.FOLDER_RETENTION_DAYS === 0 ? null : e.FOLDER_RETENTION_DAYS,
    },
    publicUrl: e.PUBLIC_URL ?? null,
    sso,
    passwordSignIn: e.PASSWORD_SIGN_IN === 'on',
    metrics:
      e.METRICS_TOKEN === undefined && e.METRICS_PORT === undefined
        ? null
        : { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null, host: e.METRICS_HOST ?? e.HOST },
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000, graceMs: e.SHUTDOWN_GRACE_SECONDS * 1000 },
    benchDiscardRoute: e.BENCH_DISCARD_ROUTE,
  };
}

function activityConfig(e: z.infer<typeof envSchema>, dataDir: string, cwd: string, database: DatabaseConfig): Config['activity'] {
  if (database.kind === 'postgres') {
    const missing = SHARED_KEY_VARIABLES.filter((name) => e[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(
        missing.join(' and '),
        `must be set with DATABASE_URL: every process of a PostgreSQL deployment needs the same ${SHARED_KEY_VARIABLES.join(' and ')} ` +
          '(make each with openssl rand -base64 32, a different value for each setting)',
      );
    }
  }
  if (e.ACTIVITY_CHAIN_KEY !== undefined && e.ACTIVITY_CHAIN_KEY === e.WEBHOOK_SIGNING_KEY) {
    throw new ConfigError('ACTIVITY_CHAIN_KEY', 'must differ from WEBHOOK_SIGNING_KEY (the activity log shares no key with webhooks)');
  }
  const anchorFile = e.ACTIVITY_ANCHOR_FILE === undefined ? path.join(dataDir, 'activity-anchor.log') : path.resolve(cwd, e.ACTIVITY_ANCHOR_FILE);
  if (database.kind === 'sqlite' && [database.file, `${database.file}-wal`, `${database.file}-shm`, `${database.file}-journal`].includes(anchorFile)) {
    throw new ConfigError('ACTIVITY_ANCHOR_FILE', 'must be a file of its own, not the database\'s');
  }
  return { chainKey: e.ACTIVITY_CHAIN_KEY ?? null, anchorFile };
}

function blobStoreConfig(e: z.infer<typeof envSchema>): BlobStoreConfig {
  if (e.BLOB_STORE === 'disk') {
    if (e.S3_BUCKET !== undefined) throw new ConfigError('S3_BUCKET', 'is set but BLOB_STORE is not s3');
    return { kind: 'disk' };
  }
  if (e.S3_BUCKET === undefined) throw new ConfigError('S3_BUCKET', 'is required with BLOB_STORE=s3');
  if (e.AWS_REGION === undefined) throw new ConfigError('AWS_REGION', 'is required with BLOB_STORE=s3 (e.g. us-east-1)');
  if ((e.AWS_ACCESS_KEY_ID === undefined) !== (e.AWS_SECRET_ACCESS_KEY === undefined)) {
    const missing = e.AWS_ACCESS_KEY_ID === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY';
    throw new ConfigError(missing, 'is required when the other AWS key variable is set');
  }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.AWS_REGION,
    endpoint: e.AWS_ENDPOINT_URL_S3 === undefined ? null : new URL(e.AWS_ENDPOINT_URL_S3).origin,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials:
      e.AWS_ACCESS_KEY_ID !== undefined && e.AWS_SECRET_ACCESS_KEY !== undefined
        ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
        : null,
  };
}
