/**
 * The composition root: configuration -> infrastructure adapters -> services -> HTTP server.
 * The only place that chooses implementations (PGlite or PostgreSQL, in-process or Redis); everything
 * else receives its ports through constructors. main.ts and the tests both build the product here.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { AccountWrites } from './auth/account-writes.js';
import { AppSessionStore } from './auth/app-session-store.js';
import { UserDirectory } from './auth/user-directory.js';
import { AuthService } from './auth/auth.service.js';
import { ConnectionGuard } from './auth/connection-guard.js';
import { ConnectionLimits } from './auth/connection-limits.js';
import type { LeaseStore } from './infra/leases/lease-store.js';
import { InProcessLeaseStore } from './infra/leases/in-process-lease-store.js';
import { RedisLeaseStore } from './infra/leases/redis-lease-store.js';
import { LoginThrottle } from './auth/login-throttle.js';
import type { PasswordHasher } from './auth/passwords.js';
import type { QuotaLimits } from './auth/api-quota.js';
import { TOTP_KEY_FILE, TotpSecrets } from './auth/totp-secrets.js';
import type { CounterStore } from './infra/counters/counter-store.js';
import { InProcessCounterStore } from './infra/counters/in-process-counter-store.js';
import { RedisCounterStore } from './infra/counters/redis-counter-store.js';
import { SessionCache } from './auth/session-cache.js';
import { CsrfTokens, TokenService } from './auth/tokens.js';
import { buildHttpServer } from './http/server.js';
import type { SchemaCompileCache } from './http/compile-cache.js';
import { createAppLogger, type LoggerConfig } from './http/logger.js';
import { createMetricsRegistry } from './http/metrics.js';
import { FileBlobStore, type BlobStore } from './infra/blobs/blob-store.js';
import { UrlSigner } from './infra/blobs/url-signer.js';
import { S3BlobStore } from './infra/blobs/s3-blob-store.js';
import { S3Presigner } from './infra/blobs/s3-presigner.js';
import { systemClock, type Clock } from './infra/clock/clock.js';
import type { IntervalTimers } from './infra/clock/timers.js';
import { openDatabase, type Database } from './infra/db/client.js';
import type { EventBus } from './infra/pubsub/event-bus.js';
import { InProcessEventBus } from './infra/pubsub/in-process-bus.js';
import { RedisEventBus } from './infra/pubsub/redis-bus.js';
import { PrefixedEventBus } from './infra/pubsub/prefixed-bus.js';
import type { JobQueue } from './infra/queue/job-queue.js';
import { InProcessJobQueue } from './infra/queue/in-process-queue.js';
import { BullMqJobQueue } from './infra/queue/bullmq-queue.js';
import { ConsumingJobQueue, consumesQueue } from './infra/queue/role-queue.js';
import { QUEUES } from './infra/queue/jobs.js';
import type { Mailer } from './infra/mail/mailer.js';
import { OutboxMailer } from './infra/mail/outbox-mailer.js';
import { SmtpMailer } from './infra/mail/smtp-mailer.js';
import { loadOrCreateSecret } from './infra/secrets.js';
import { buildDemoAccountsModule } from './demo/module.js';
import { EgressPolicy, type HostResolver } from './infra/egress/egress-policy.js';
import { type CatalogService, TRACK_CHANGED_CHANNEL } from './platform/catalog/catalog.service.js';
import { buildCatalogModule } from './platform/catalog/module.js';
import { buildMediaModule } from './platform/media/module.js';
import { buildPlatformAuthModule } from './platform/auth/module.js';
import { DeveloperAccountsRepository } from './platform/developer/developer-accounts.js';
import { buildDeveloperModule } from './platform/developer/module.js';
import { buildUsersModule } from './platform/users/module.js';
import { buildPlatformAdminModule } from './platform/admin/module.js';
import { buildListenersModule } from './platform/listeners/module.js';
import { buildArtistsModule } from './platform/artists/module.js';
import { SandboxTwins } from './platform/artists/sandbox-twins.js';
import { buildStaffAuthModule } from './station/auth/module.js';
import { buildWebhooksModule, type WebhookOptions } from './platform/webhooks/module.js';
import { PlatformEvents } from './platform/webhooks/platform-events.js';
import { buildStationModules, type StationModules } from './station/modules.js';
import type { Engine } from './engine/engine.js';
import { LocalEngine } from './engine/local-engine.js';
import { RemoteEngine } from './engine/remote/remote-engine.js';
import { BlobArtifactSource } from './station/models/blob-artifact-source.js';
import { buildStoreModule } from './platform/store/module.js';
import { createPaymentProcessors, type StripeEndpoint } from './infra/payments/processors.js';
import { buildSubscriptionsModule } from './platform/subscriptions/module.js';
import { buildOAuthModule } from './platform/oauth/module.js';
import { buildAnalyticsModule, type AnalyticsOptions } from './platform/analytics/module.js';
import { ANALYTICS_FEED_CHANNEL } from './platform/analytics/live-feed.js';
import { buildUploadsModule } from './platform/uploads/module.js';

export interface StationOptions {
  clock?: Clock;
  /** Repeating timers of the realtime channels (tests fire them by hand); real ones by default. */
  timers?: IntervalTimers;
  /** An already-open database (tests use a fresh one per suite); otherwise opened from the config. */
  database?: Database;
  logger?: LoggerConfig;
  /** Webhook delivery tuning (tests shorten the backoff and the timeout). */
  webhooks?: WebhookOptions;
  /** The AI engine; in-process worker threads by default. */
  engine?: Engine;
  /** Name resolution for webhook and notify_webhook deliveries (tests simulate DNS); the system resolver by default. */
  resolveHost?: HostResolver;
  /** Password hashing; argon2id by default (tests wrap it to count hashes). */
  passwords?: PasswordHasher;
  /** Where the Stripe API is (tests run a local stand-in); api.stripe.com by default. */
  stripeEndpoint?: StripeEndpoint;
  /** Developer-key quotas (tests lower them); platform-api.md's limits by default. */
  apiQuotas?: Partial<QuotaLimits>;
  /** The analytics SSE heartbeat (tests shorten it). */
  analytics?: AnalyticsOptions;
  /** Route validators and serializers compiled by an earlier station of this process (tests build hundreds). */
  compileCache?: SchemaCompileCache;
  /**
   * How long close() waits for running jobs before giving up on them (10 s by default). Tests whose engine
   * holds a render forever shorten it: the wait ends the same way, only sooner.
   */
  jobCloseTimeoutMs?: number;
}

export interface Station {
  config: Config;
  http: FastifyInstance;
  database: Database;
  bus: EventBus;
  queue: JobQueue;
  blobs: BlobStore;
  signer: UrlSigner;
  mailer: Mailer;
  auth: AuthService;
  catalog: CatalogService;
  station: StationModules;
  engine: Engine;
  clock: Clock;
  /** Stops accepting requests, lets in-flight ones finish, then closes workers, connections and the database. */
  close(): Promise<void>;
}

function loggerOptions(config: Config, override: StationOptions['logger']): LoggerConfig {
  if (override !== undefined) return override;
  return {
    level: config.logLevel,
    // Secrets never reach the logs, whichever object carries them.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers["x-csrf-token"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.totp_code',
        '*.refresh_token',
        '*.api_key',
      ],
      censor: '[redacted]',
    },
  };
}

/** How long /readyz waits for PostgreSQL and Redis to answer before it says 503. */
const READY_PROBE_MS = 2_000;

/** `work`, or a rejection after `ms` (the work itself goes on; its outcome is ignored). */
function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The jobs `npm run worker` runs (and STATION_ROLE=api instances leave to it): the engine's and webhook delivery. */
export const WORKER_QUEUES = [QUEUES.generation, QUEUES.training, QUEUES.webhooks] as const;

/** The longest a request waits on one Redis command (src/infra/outage.ts turns the timeout into a 503). */
const REDIS_COMMAND_TIMEOUT_MS = 2_000;

export async function createStation(config: Config, options: StationOptions = {}): Promise<Station> {
  const clock = options.clock ?? systemClock;
  // First, so that every part below is given it when it is built.
  const { log, http: httpLog } = createAppLogger(loggerOptions(config, options.logger));
  const database = options.database ?? (await openDatabase({ url: config.databaseUrl, migrationUrl: config.databaseMigrationUrl, dataDir: config.dataDir }));
  await database.migrate();

  // Commands wait through a reconnect (no retry limit) but never longer than REDIS_COMMAND_TIMEOUT_MS: during
  // an outage a request that needs Redis (rate limits, login throttling) answers 503 at once instead of hanging.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS })
    : null;
  const bus: EventBus = config.redisUrl
    ? new PrefixedEventBus(new RedisEventBus({ url: config.redisUrl, publishRetries: config.busPublishRetries }), config.redisPrefix)
    : new InProcessEventBus();
  const jobs: JobQueue = config.redisUrl
    ? new BullMqJobQueue({
        url: config.redisUrl,
        prefix: `${config.redisPrefix}:queue`,
        lockDurationMs: config.jobLockMs,
        closeTimeoutMs: options.jobCloseTimeoutMs,
      })
    : new InProcessJobQueue({ closeTimeoutMs: options.jobCloseTimeoutMs });
  // STATION_ROLE: API instances leave the engine's queues to `npm run worker`, which runs only those.
  const queue: JobQueue = config.role === 'all' ? jobs : new ConsumingJobQueue(jobs, (name) => consumesQueue(config.role, WORKER_QUEUES, name));
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, clock })
    : new OutboxMailer(database.db, clock);

  const objectStore = config.s3 ? new S3BlobStore(config.s3) : null;
  const blobs: BlobStore = objectStore ?? new FileBlobStore(join(config.dataDir, 'blobs'));
  const presigner = config.s3 && config.mediaLinks.mode === 'presigned' ? new S3Presigner(config.s3, config.mediaLinks.publicEndpoint) : null;
  const signer = new UrlSigner(loadOrCreateSecret(config.dataDir, 'media', null), config.publicBaseUrl, clock, presigner);
  const jwtKey = loadOrCreateSecret(config.dataDir, 'jwt', config.jwtSecret);
  const tokens = new TokenService(jwtKey, clock);
  const csrf = new CsrfTokens(loadOrCreateSecret(config.dataDir, 'csrf', null));
  const sessionCache = new SessionCache(clock);
  await sessionCache.listen(bus);

  // Login throttling and the 2FA step's attempts are shared by every instance (Redis) when there are several.
  const counters: CounterStore = redis ? new RedisCounterStore(redis, `${config.redisPrefix}:auth`) : new InProcessCounterStore(clock);
  // ---- Webhooks: station and platform events share one registry (src/platform/webhooks/module.ts); built
  // before the events, which record their deliveries in its outbox before publishing them ----
  // One egress policy (STATION_WEBHOOK_ALLOWED_HOSTS) for webhooks and training's notify_webhook.
  const egress = new EgressPolicy(config.webhookAllowedHosts, options.resolveHost);
  // Auth's read port on `users` (a hook's owner standing here; the admin's list and subscribers below).
  const userDirectory = new UserDirectory(database.db);
  // The artists group's sandbox copies of an owner's artists, which capsules, the store and uploads make before acting.
  const sandboxTwins = new SandboxTwins(database.db);
  const webhooks = buildWebhooksModule({
    db: database.db,
    owners: userDirectory,
    bus,
    queue,
    clock,
    egress,
    secretKey: loadOrCreateSecret(config.dataDir, 'webhook-secrets', null),
    ...options.webhooks,
  });
  // ---- end webhooks ----
  const platformEvents = new PlatformEvents(bus, clock, webhooks.outbox);
  const developerAccounts = new DeveloperAccountsRepository(database.db);
  const auth = new AuthService({
    database,
    developerAccounts,
    tokens,
    csrf,
    clock,
    bus,
    sessions: sessionCache,
    counters,
    throttle: new LoginThrottle(counters, clock),
    totpSecrets: new TotpSecrets(loadOrCreateSecret(config.dataDir, TOTP_KEY_FILE, null)),
    passwords: options.passwords,
    quotas: options.apiQuotas,
    maxKeysPerAccount: config.maxKeysPerAccount,
    events: platformEvents,
    oidc: config.oidc,
    mail: {
      mailer,
      publicBaseUrl: config.publicBaseUrl,
      onError: (error) => log.error({ err: error }, 'a password-reset mail or a user.signup event failed'),
    },
  });
  const bootstrapWarnings = await auth.bootstrap(config.admin, config.serviceApiKey);
  // ---- The HTTP-only groups around auth: sign-in, developer accounts, a user's own profile, administration ----
  const secureCookies = config.publicBaseUrl.startsWith('https:');
  const staffAuth = buildStaffAuthModule({ auth, secureCookies });
  const platformAuth = buildPlatformAuthModule({ auth, secureCookies });
  const developer = buildDeveloperModule({ auth, accounts: developerAccounts, publicBaseUrl: config.publicBaseUrl });
  // Auth owns `users`: the other groups write its columns (AccountWrites) and read it (UserDirectory) through it.
  const accountWrites = new AccountWrites();
  const users = buildUsersModule({ db: database.db, clock, developerAccounts, totp: auth.totp, names: accountWrites, accounts: userDirectory });
  // WebSocket clients and stream listeners end with their credential, on whichever instance holds them.
  // ... and each credential holds at most so many of them at once, counted over every instance.
  const leases: LeaseStore = redis
    ? new RedisLeaseStore(redis, `${config.redisPrefix}:leases`, { onError: (error) => log.warn({ err: error }, 'connection leases not renewed') })
    : new InProcessLeaseStore();
  const connectionLimits = new ConnectionLimits(leases, config.connectionLimits, (error) => log.warn({ err: error }, 'a connection lease was not released'));
  const connectionGuard = new ConnectionGuard(auth.credentials, connectionLimits, (error) => log.error({ err: error }, 'closing a revoked connection failed'));
  await connectionGuard.start(bus);
  // A recorded on-demand play wakes the live analytics feed on every instance (best effort: the play is kept).
  const playRecorded = () => bus.publish(ANALYTICS_FEED_CHANNEL, null).catch((error) => log.warn({ err: error }, 'analytics wake-up not published'));
  const catalogModule = buildCatalogModule({
    db: database.db,
    concurrentStatements: database.driver === 'postgres',
    listenerCountry: users.profiles,
    signer,
    blobs,
    bus,
    clock,
    playCounters: redis ? new RedisCounterStore(redis, `${config.redisPrefix}:plays`) : new InProcessCounterStore(clock),
    onPlayRecorded: playRecorded,
  });
  const catalog = catalogModule.service;
  const platformAdmin = buildPlatformAdminModule({ users: auth.users, directory: userDirectory, totp: auth.totp, songwriters: catalogModule.songwriterReads });
  const media = buildMediaModule({ blobs, signer });

  // ---- AI engine: in-process, or the ML service over HTTP when ML_URL is set (it fetches 1-hour signed links) ----
  const engine =
    options.engine ??
    (config.ml
      ? new RemoteEngine({ baseUrl: config.ml.url, apiKey: config.ml.apiKey, signArtifact: (ref) => signer.sign(ref.blobKey, 3600).url })
      : new LocalEngine({ artifacts: new BlobArtifactSource(blobs), niceness: config.engineThreadNiceness ?? undefined }));
  // Uploads before the store: a purchase of an uploaded track downloads its master (the uploads' `masters`).
  const uploads = buildUploadsModule({
    config,
    db: database.db,
    catalog: catalogModule.uploadWrites,
    catalogReads: catalogModule.uploadReads,
    sandboxTwins,
    blobs,
    queue,
    bus,
    events: platformEvents,
    clock,
    engine,
    timers: options.timers,
    log,
  });
  // One set of payment processors for the store and the Pro subscriptions; the Stripe webhook serves both.
  const processors = createPaymentProcessors(config, clock, options.stripeEndpoint);
  const subscriptions = buildSubscriptionsModule({
    db: database.db,
    processors,
    events: platformEvents,
    clock,
    publicBaseUrl: config.publicBaseUrl,
    plans: accountWrites,
    subscribers: userDirectory,
  });
  const store = buildStoreModule({
    db: database.db,
    events: platformEvents,
    signer,
    blobs,
    clock,
    processors,
    publicBaseUrl: config.publicBaseUrl,
    subscriptions: subscriptions.service,
    masters: uploads.masters,
    catalog: catalogModule.salesReads,
    sandboxTwins,
  });
  const station = buildStationModules({
    config,
    eventOutbox: webhooks.outbox,
    database,
    bus,
    queue,
    blobs,
    signer,
    clock,
    engine,
    egress,
    timers: options.timers,
    access: connectionGuard,
    leases,
    playWindow: catalogModule.playWindow,
    catalogTracks: catalogModule.trackReads,
    catalogDataset: catalogModule.datasetReads,
    catalogPlayout: catalogModule.repo,
    verified: auth,
    masterBitrates: uploads.masterBitrates,
    log,
  });
  const analytics = buildAnalyticsModule({
    db: database.db,
    bus,
    clock,
    access: connectionGuard,
    listeners: () => station.realtime.listenerTotal(),
    onError: (error) => log.error({ err: error }, 'the live analytics feed failed to read'),
    ...options.analytics,
  });
  // A published or changed catalog track may bring new style features: the safety filter's reference is rebuilt when next needed.
  await bus.subscribe(TRACK_CHANGED_CHANNEL, () => station.safetyReference.invalidate());
  const artists = buildArtistsModule({
    db: database.db,
    catalogRepository: catalogModule.repo,
    catalog,
    signer,
    events: platformEvents,
    clock,
    accounts: auth,
    accountLock: accountWrites,
    releaseProducts: store.releaseProducts,
    datasetStatus: station.dataset.artistStatus,
  });
  const listeners = buildListenersModule({
    db: database.db,
    events: platformEvents,
    clock,
    purchases: store.capsulePurchases,
    profiles: users.profiles,
    catalog: catalogModule.displayReads,
    listeningHistory: catalogModule.listeningHistory,
    sandboxTwins,
    follows: artists.follows,
  });
  const oauth = buildOAuthModule({
    db: database.db,
    auth,
    appSessions: new AppSessionStore(database.db),
    developerAccounts,
    tokens,
    csrf,
    clock,
    issuer: config.publicBaseUrl,
  });

  let ready = false;
  // Demo only: a listener, an artist and an integrator to try the platform as (src/demo/seed-accounts.ts).
  const demoAccounts = config.demo ? buildDemoAccountsModule({ db: database.db, auth, jwtKey, log }) : null;
  const http = await buildHttpServer(
    {
      log: httpLog,
      auth,
      metrics: createMetricsRegistry(),
      metricsToken: config.metricsToken,
      rateLimitRedis: redis,
      rateLimitNamespace: `${config.redisPrefix}:rate-limit:`,
      publicBaseUrl: config.publicBaseUrl,
      mediaOrigin: presigner?.origin ?? null,
      trustProxy: config.trustProxy,
      requestTimeoutMs: config.requestTimeoutMs,
      longestBodyTimeoutMs: config.uploadTimeoutMs,
      compileCache: options.compileCache,
      // Ready while this instance can serve: started, and PostgreSQL and Redis answer within READY_PROBE_MS
      // (a partition makes queries hang rather than fail: the probe answers 503 instead of hanging too).
      isReady: async () => {
        if (!ready) return false;
        if (redis && redis.status !== 'ready') return false;
        await withinMs(READY_PROBE_MS, Promise.all([database.ping(), redis?.ping()]));
        return true;
      },
    },
    async (app) => {
      await staffAuth.routes(app);
      await platformAuth.routes(app);
      await developer.routes(app);
      await users.routes(app);
      await platformAdmin.routes(app);
      await catalogModule.routes(app);
      await uploads.routes(app);
      await artists.routes(app);
      await media.routes(app);
      await webhooks.routes(app);
      await store.routes(app);
      await subscriptions.routes(app);
      await listeners.routes(app);
      await oauth.routes(app);
      await analytics.routes(app);
      await demoAccounts?.routes(app);
      await station.routes(app);
    },
  );
  for (const warning of bootstrapWarnings) log.warn(warning);
  await http.ready();
  await catalogModule.start(); // the track cache's invalidation from every instance
  await webhooks.start(); // webhooks: queue worker, bus subscription, pending attempts re-queued
  await analytics.start(); // the live feed's bus subscriptions
  await uploads.start(); // uploads: render worker, renders left processing re-queued
  await station.start();
  await demoAccounts?.start();
  ready = true;

  return {
    config,
    http,
    database,
    bus,
    queue,
    blobs,
    signer,
    mailer,
    auth,
    catalog,
    station,
    engine,
    clock,
    async close() {
      ready = false;
      await http.close();
      await auth.drain();
      await station.stop();
      await catalogModule.stop();
      await webhooks.stop(); // webhooks: before the queue, so in-flight attempts stay pending
      await analytics.stop();
      await uploads.stop(); // uploads: a render in progress stops; it is re-queued at the next start
      await queue.close();
      await engine.close();
      await connectionGuard.stop();
      await leases.close();
      await bus.close();
      redis?.disconnect();
      objectStore?.close();
      await database.close();
    },
  };
}
