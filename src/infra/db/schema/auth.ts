import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const userRole = pgEnum('user_role', ['listener', 'artist', 'developer', 'admin', 'super_admin']);
export const userStatus = pgEnum('user_status', ['active', 'banned']);
// 'oauth': the tokens a third-party app holds for a user (src/platform/oauth), limited to the approved scopes.
export const sessionKind = pgEnum('session_kind', ['staff', 'platform', 'oauth']);
// 'pro' once a subscription is paid (src/platform/subscriptions).
export const userPlan = pgEnum('user_plan', ['free', 'pro']);
export const apiKeyEnvironment = pgEnum('api_key_environment', ['live', 'test']);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Stored lower-cased; the unique index is what stops two sign-ups racing for one address.
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: userRole('role').notNull().default('listener'),
    status: userStatus('status').notNull().default('active'),
    displayName: text('display_name').notNull(),
    plan: userPlan('plan').notNull().default('free'),
    // Sealed with the DATA_DIR key (src/auth/totp-secrets.ts): 'v1.<iv>.<tag>.<ciphertext>'.
    totpSecret: text('totp_secret'),
    // The last TOTP time step accepted: a code from this step or an earlier one is a replay.
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    // An enrolment not yet confirmed (POST /v1/users/me/totp, src/auth/totp-enrolment.ts), sealed like totp_secret;
    // it moves to totp_secret when a code from it is confirmed, and counts for no login until then.
    totpPendingSecret: text('totp_pending_secret'),
    // When the current address was proven (src/auth/email-verification.ts); null until then, and again after a change.
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Secrets an older version stored in clear, sealed at start; the partial index keeps that check free.
  (t) => [
    index('users_totp_secret_clear_idx')
      .on(t.id)
      .where(sql`${t.totpSecret} IS NOT NULL AND ${t.totpSecret} NOT LIKE 'v1.%'`),
  ],
);

/** One login: the refresh tokens of a login form a rotation family that is revoked as a whole. */
/** Third-party apps registered by developers (src/platform/oauth; their grants and codes are in oauth.ts). */
export const oauthClientType = pgEnum('oauth_client_type', ['confidential', 'public']);

export const oauthClients = pgTable(
  'oauth_clients',
  {
    /** The client_id. */
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Compared exactly with the redirect_uri of a request (https, or http on a loopback host). */
    redirectUris: text('redirect_uris').array().notNull(),
    /** The most an app may ask a user for; each user's grant is at most this and at most their own rights. */
    scopes: text('scopes').array().notNull(),
    type: oauthClientType('type').notNull(),
    /** SHA-256 of the client_secret (256-bit random, so a fast hash is enough); null for a public client. */
    secretHash: text('secret_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_clients_owner_idx').on(t.ownerUserId, t.createdAt)],
);

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: sessionKind('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    // Whether this login passed TOTP: without it the session never holds TOTP-only scopes (src/auth/scopes.ts).
    secondFactor: boolean('second_factor').notNull().default(false),
    // An 'oauth' session's app and the scopes the user approved (never more than the role's); null otherwise.
    oauthClientId: uuid('oauth_client_id').references(() => oauthClients.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array(),
  },
  (t) => [
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_oauth_client_idx')
      .on(t.oauthClientId, t.userId)
      .where(sql`${t.oauthClientId} IS NOT NULL`),
    // kind compared as text: a new enum value cannot be used as a constant in the migration that adds it.
    check('auth_sessions_oauth_shape', sql`(${t.kind}::text = 'oauth') = (${t.oauthClientId} IS NOT NULL AND ${t.scopes} IS NOT NULL)`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  // SHA-256 of the whole key: keys are 256-bit random, so a fast hash is enough and allows an indexed lookup.
  keyHash: text('key_hash').notNull().unique(),
  keyPrefix: text('key_prefix').notNull(),
  scopes: text('scopes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  environment: apiKeyEnvironment('environment').notNull().default('live'),
  ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});
