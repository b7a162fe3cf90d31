/**
 * The operator's configuration: every environment variable of ../shared/spec/contract.md, parsed and
 * validated once at start. Nothing else in the code reads process.env; this object is passed in.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { AllowListError, DEFAULT_ALLOW_LIST_TEXT, parseAllowList, type AllowList } from './infra/egress/allow-list.js';
import type { S3Location } from './infra/blobs/s3-blob-store.js';

export interface AdminBootstrap {
  email: string;
  password: string;
  totpSecret: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  databaseUrl: string | null;
  /** A role that owns the schema and runs migrations; DATABASE_URL's role then only reads and writes data. */
  databaseMigrationUrl: string | null;
  redisUrl: string | null;
  /** Namespace of every Redis key and channel, so several stations (or test runs) can share one Redis. */
  redisPrefix: string;
  /**
   * STATION_ROLE: `all` (default) serves HTTP and runs every queue; `api` serves HTTP and leaves the engine's
   * queues (generation, training, webhook delivery) to workers; `worker` (`npm run worker`) runs only those.
   */
  role: StationRole;
  /** STATION_JOB_LOCK_SEC: how long a BullMQ job's lock lives unrenewed: a dead worker's job is retried after it. */
  jobLockMs: number;
  /**
   * STATION_TRAINING_STALE_SEC: a running training job whose heartbeat is older than this lost its worker and is
   * queued again (20 s; a live worker beats every 2 s). Fault tests shorten it to reach the recovery sooner.
   */
  trainingStaleMs: number;
  /**
   * STATION_BUS_PUBLISH_RETRIES: Redis reconnect attempts a pub/sub publish waits through before it fails
   * (20, about 75 s of outage). Tests shorten it to reach an outage longer than the window quickly.
   */
  busPublishRetries: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  admin: AdminBootstrap | null;
  serviceApiKey: string | null;
  webhookSecret: string | null;
  /** STATION_WEBHOOK_ALLOWED_HOSTS: where webhooks and notify_webhook may be delivered (src/infra/egress). */
  webhookAllowedHosts: AllowList;
  jwtSecret: string | null;
  smtpUrl: string | null;
  /** The OpenID Connect provider behind POST /v1/auth/google (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET). */
  oidc: { issuer: string; clientId: string; clientSecret: string | null } | null;
  mailFrom: string;
  demo: boolean;
  demoTrackSec: number;
  /**
   * Nice value of the engine's worker threads (STATION_ENGINE_NICENESS, 0-19, default 10): renders and training
   * yield the CPU to the API thread. 0 keeps them at the API's priority, for a machine given to the engine.
   * Null: the engine's own default.
   */
  engineThreadNiceness: number | null;
  schedulerCycleSec: number;
  contextRotationSec: number;
  listenerBroadcastSec: number;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | null;
  /** The AI engine on another machine (`npm run ml-service`); null runs it in-process. */
  ml: MlServiceLink | null;
  /** Which proxies' X-Forwarded-For to believe (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** STATION_UPLOAD_MAX_MB in bytes: the largest audio file POST /v1/tracks accepts. */
  uploadMaxBytes: number;
  /** STATION_UPLOAD_MAX_SEC: the longest audio an upload may declare; longer files are refused before decoding. */
  uploadMaxSec: number;
  /** STATION_REQUEST_TIMEOUT_SEC in ms: a request's body must have arrived this long after it started (408). */
  requestTimeoutMs: number;
  /** STATION_UPLOAD_TIMEOUT_SEC in ms: the same limit for an upload's body, which may be large. */
  uploadTimeoutMs: number;
  /** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: Stripe as the payment processor; null uses the sandbox. */
  stripe: { secretKey: string; webhookSecret: string } | null;
  /** S3_*: media in an S3-compatible object store instead of DATA_DIR/blobs; null keeps them on disk. */
  s3: S3Location | null;
  /** STATION_MEDIA_LINKS (and S3_PUBLIC_ENDPOINT): who answers the media links the station hands out. */
  mediaLinks: MediaLinks;
  /** STATION_MAX_KEYS_PER_ACCOUNT: unrevoked developer keys one account may hold, live and test together. */
  maxKeysPerAccount: number;
  /**
   * STATION_STORE_SANDBOX_LIVE (default: STATION_DEMO): live checkouts and Pro subscriptions complete through the
   * built-in sandbox processor when Stripe is not configured, as a demo store; never for production. Sandbox
   * payments are never live money (livemode false): they count in no revenue, payout or KPI. Off, a live
   * checkout without Stripe answers 503 PLATFORM_PAYMENTS_UNAVAILABLE.
   */
  storeSandboxLive: boolean;
  /** Concurrent connections one credential may hold (STATION_MAX_{STREAMS,WEBSOCKETS,SSE}_PER_CREDENTIAL). */
  connectionLimits: { stream: number; websocket: number; sse: number };
}

/**
 * 'proxy': station-signed /media links under PUBLIC_BASE_URL, served by the station from whichever store.
 * 'presigned': the object store's own presigned GET URLs (at publicEndpoint, else S3_ENDPOINT), so the store
 * or a CDN in front of it serves the bytes.
 */
export type MediaLinks = { mode: 'proxy' } | { mode: 'presigned'; publicEndpoint: string | null };

/**
 * TRUST_PROXY: 'none' believes no X-Forwarded-For (the client is the socket's peer); 'hops' believes that
 * many proxies in front of the server, whoever they are; 'addresses' believes the proxies at these
 * addresses, CIDRs or named ranges (loopback, linklocal, uniquelocal), as Fastify's trustProxy does.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };

export interface MlServiceLink {
  url: string;
  apiKey: string;
}

export const STATION_ROLES = ['all', 'api', 'worker'] as const;
export type StationRole = (typeof STATION_ROLES)[number];

function stationRole(env: Env, redisUrl: string | null, databaseUrl: string | null): StationRole {
  const role = (text(env, 'STATION_ROLE') ?? 'all').toLowerCase();
  if (!(STATION_ROLES as readonly string[]).includes(role)) throw new ConfigError('STATION_ROLE', `one of ${STATION_ROLES.join(', ')}`, role);
  // Split roles share jobs through BullMQ and state through PostgreSQL: the embedded defaults live in one process.
  if (role !== 'all' && (redisUrl === null || databaseUrl === null)) {
    throw new ConfigError('STATION_ROLE', `all unless REDIS_URL and DATABASE_URL are set (${role} needs another process to share jobs with)`, role);
  }
  return role as StationRole;
}

export class ConfigError extends Error {
  constructor(variable: string, accepts: string, got: string) {
    super(`${variable} must be ${accepts}; got ${JSON.stringify(got)}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const BASE32 = /^[A-Z2-7]+=*$/;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const lowered = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
  if (['false', '0', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(name, 'true or false', raw);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, raw);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `a URL (${protocols.join(', ')})`, raw);
  return raw.replace(/\/+$/, '');
}

function prefix(env: Env, name: string): string {
  const raw = text(env, name) ?? 'station';
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(raw)) throw new ConfigError(name, 'letters, digits, _ or - (at most 40)', raw);
  return raw;
}

function allowList(env: Env, name: string): AllowList {
  const raw = text(env, name) ?? DEFAULT_ALLOW_LIST_TEXT;
  try {
    return parseAllowList(raw);
  } catch (error) {
    if (!(error instanceof AllowListError)) throw error;
    throw new ConfigError(name, `a comma-separated list of external, loopback, private, *, host names and CIDRs (${error.message})`, raw);
  }
}

function adminBootstrap(env: Env): AdminBootstrap | null {
  const email = text(env, 'STATION_ADMIN_EMAIL');
  const password = text(env, 'STATION_ADMIN_PASSWORD');
  const totp = text(env, 'STATION_ADMIN_TOTP_SECRET');
  if (email === null && password === null && totp === null) return null;
  if (email === null || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new ConfigError('STATION_ADMIN_EMAIL', 'an e-mail address (set with the other STATION_ADMIN_* variables)', email ?? '');
  }
  if (password === null || password.length < 12) {
    throw new ConfigError('STATION_ADMIN_PASSWORD', 'a password of at least 12 characters', password === null ? '' : '<hidden>');
  }
  const secret = (totp ?? '').replace(/\s+/g, '').toUpperCase();
  if (!BASE32.test(secret) || secret.replace(/=+$/, '').length < 16) {
    throw new ConfigError('STATION_ADMIN_TOTP_SECRET', 'a base32 secret of at least 16 characters (RFC 6238)', totp === null ? '' : '<hidden>');
  }
  return { email: email.toLowerCase(), password, totpSecret: secret };
}

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address/prefix (CIDR) or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}

function trustProxy(env: Env): TrustProxy {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === null || raw === '0') return { kind: 'none' };
  const accepts = 'a hop count, or comma-separated proxy addresses/CIDRs (or loopback, linklocal, uniquelocal)';
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw new ConfigError('TRUST_PROXY', accepts, raw);
    return { kind: 'hops', hops };
  }
  const addresses = raw.split(',').map((entry) => entry.trim());
  if (!addresses.every(isProxyAddress)) throw new ConfigError('TRUST_PROXY', accepts, raw);
  return { kind: 'addresses', addresses };
}

function mlServiceLink(env: Env): MlServiceLink | null {
  const mlUrl = url(env, 'ML_URL', ['http:', 'https:']);
  const apiKey = text(env, 'ML_API_KEY');
  if (mlUrl === null) return null;
  if (apiKey === null) throw new ConfigError('ML_API_KEY', 'the ML service key (required when ML_URL is set)', '');
  return { url: mlUrl, apiKey };
}

function stripe(env: Env): Config['stripe'] {
  const secretKey = text(env, 'STRIPE_SECRET_KEY');
  const webhookSecret = text(env, 'STRIPE_WEBHOOK_SECRET');
  if (secretKey === null && webhookSecret === null) return null;
  if (secretKey === null || !/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'a Stripe secret key (sk_test_..., sk_live_... or rk_...), set with STRIPE_WEBHOOK_SECRET', '<hidden>');
  }
  if (webhookSecret === null || !webhookSecret.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'the endpoint signing secret (whsec_...), set with STRIPE_SECRET_KEY', '<hidden>');
  }
  return { secretKey, webhookSecret };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`, logLevel);
  }
  const serviceApiKey = text(env, 'STATION_SERVICE_API_KEY');
  if (serviceApiKey !== null && serviceApiKey.length < 16) {
    throw new ConfigError('STATION_SERVICE_API_KEY', 'a key of at least 16 characters', '<hidden>');
  }
  const jwtSecret = text(env, 'STATION_JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('STATION_JWT_SECRET', 'a secret of at least 32 characters', '<hidden>');
  }
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseMigrationUrl = url(env, 'DATABASE_MIGRATION_URL', ['postgres:', 'postgresql:']);
  if (databaseMigrationUrl !== null && databaseUrl === null) {
    throw new ConfigError('DATABASE_MIGRATION_URL', 'set only together with DATABASE_URL (the embedded database has no roles)', '<hidden>');
  }
  const demo = boolean(env, 'STATION_DEMO', true);
  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: resolve(cwd, text(env, 'DATA_DIR') ?? './data'),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    databaseUrl,
    databaseMigrationUrl,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: prefix(env, 'REDIS_PREFIX'),
    role: stationRole(env, url(env, 'REDIS_URL', ['redis:', 'rediss:']), databaseUrl),
    jobLockMs: integer(env, 'STATION_JOB_LOCK_SEC', 30, 5, 3600) * 1000,
    trainingStaleMs: integer(env, 'STATION_TRAINING_STALE_SEC', 20, 5, 3600) * 1000,
    busPublishRetries: integer(env, 'STATION_BUS_PUBLISH_RETRIES', 20, 0, 1000),
    logLevel: logLevel as Config['logLevel'],
    admin: adminBootstrap(env),
    serviceApiKey,
    webhookSecret: text(env, 'STATION_WEBHOOK_SECRET'),
    webhookAllowedHosts: allowList(env, 'STATION_WEBHOOK_ALLOWED_HOSTS'),
    jwtSecret,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    oidc: oidcProvider(env),
    mailFrom: text(env, 'MAIL_FROM') ?? 'Station <no-reply@station.local>',
    demo,
    demoTrackSec: integer(env, 'STATION_DEMO_TRACK_SEC', 150, 4, 600),
    engineThreadNiceness: text(env, 'STATION_ENGINE_NICENESS') === null ? null : integer(env, 'STATION_ENGINE_NICENESS', 0, 0, 19),
    schedulerCycleSec: integer(env, 'STATION_SCHEDULER_CYCLE_SEC', 30, 1, 3600),
    contextRotationSec: integer(env, 'STATION_CONTEXT_ROTATION_SEC', 1800, 10, 86400),
    listenerBroadcastSec: integer(env, 'STATION_LISTENER_BROADCAST_SEC', 15, 1, 3600),
    metricsToken: text(env, 'METRICS_TOKEN'),
    ml: mlServiceLink(env),
    trustProxy: trustProxy(env),
    stripe: stripe(env),
    storeSandboxLive: boolean(env, 'STATION_STORE_SANDBOX_LIVE', demo),
    uploadMaxBytes: integer(env, 'STATION_UPLOAD_MAX_MB', 100, 1, 2048) * 1024 * 1024,
    ...objectStore(env),
    maxKeysPerAccount: integer(env, 'STATION_MAX_KEYS_PER_ACCOUNT', 10, 1, 1000),
    uploadMaxSec: integer(env, 'STATION_UPLOAD_MAX_SEC', 1200, 1, 24 * 3600),
    requestTimeoutMs: integer(env, 'STATION_REQUEST_TIMEOUT_SEC', 30, 1, 3600) * 1000,
    uploadTimeoutMs: integer(env, 'STATION_UPLOAD_TIMEOUT_SEC', 900, 1, 24 * 3600) * 1000,
    connectionLimits: {
      stream: integer(env, 'STATION_MAX_STREAMS_PER_CREDENTIAL', 3, 1, 10_000),
      websocket: integer(env, 'STATION_MAX_WEBSOCKETS_PER_CREDENTIAL', 10, 1, 10_000),
      sse: integer(env, 'STATION_MAX_SSE_PER_CREDENTIAL', 5, 1, 10_000),
    },
  };
}

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

function s3Location(env: Env): S3Location | null {
  if (S3_VARIABLES.every((name) => text(env, name) === null)) return null;
  const bucket = text(env, 'S3_BUCKET');
  if (bucket === null || !/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(bucket)) {
    throw new ConfigError('S3_BUCKET', 'a bucket name (required when another S3_* variable is set)', bucket ?? '');
  }
  const region = text(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(region)) throw new ConfigError('S3_REGION', 'a region name such as us-east-1', region);
  const accessKeyId = text(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = text(env, 'S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(accessKeyId === null ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY', 'set together with the other', '<unset>');
  }
  return {
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    bucket,
    region,
    credentials: accessKeyId !== null && secretAccessKey !== null ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

function objectStore(env: Env): { s3: S3Location | null; mediaLinks: MediaLinks } {
  const s3 = s3Location(env);
  const mode = text(env, 'STATION_MEDIA_LINKS') ?? 'proxy';
  const publicEndpoint = url(env, 'S3_PUBLIC_ENDPOINT', ['http:', 'https:']);
  if (mode === 'proxy') {
    if (publicEndpoint !== null) throw new ConfigError('S3_PUBLIC_ENDPOINT', 'set only with STATION_MEDIA_LINKS=presigned', publicEndpoint);
    return { s3, mediaLinks: { mode: 'proxy' } };
  }
  if (mode !== 'presigned') throw new ConfigError('STATION_MEDIA_LINKS', 'proxy or presigned', mode);
  if (s3?.credentials == null) {
    throw new ConfigError(
      'STATION_MEDIA_LINKS',
      'proxy unless S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set (presigned links are signed with those keys)',
      mode,
    );
  }
  return { s3, mediaLinks: { mode: 'presigned', publicEndpoint } };
}

function oidcProvider(env: Env): Config['oidc'] {
  const issuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']);
  const clientId = text(env, 'OIDC_CLIENT_ID');
  if (issuer === null && clientId === null) return null;
  if (issuer === null || clientId === null) throw new ConfigError(issuer === null ? 'OIDC_ISSUER' : 'OIDC_CLIENT_ID', 'set together with the other', '<unset>');
  return { issuer, clientId, clientSecret: text(env, 'OIDC_CLIENT_SECRET') };
}
