/**
 * OAuth 2.0 (authorization code with PKCE): third-party apps registered by developers, the user's grant to
 * an app, and single-use authorization codes. The tokens an app holds are login sessions of kind 'oauth'
 * (auth_sessions.oauth_client_id, auth_sessions.scopes), so they ride the same refresh rotation, revocation
 * and session cache as every other login (src/auth/delegated-sessions.ts, src/platform/oauth).
 */
import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// oauth_clients lives in auth.ts: login sessions of kind 'oauth' reference it, and it references users.
import { authSessions, oauthClients, users } from './auth.js';

/** What a user approved for an app (the union of their approvals); revoking it ends the app's tokens. */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId] }), index('oauth_grants_client_idx').on(t.clientId)],
);

/** Authorization codes: only the SHA-256 is kept; spent by their first redemption, valid 10 minutes. */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scopes: text('scopes').array().notNull(),
    /** PKCE S256 challenge: base64url(SHA-256(code_verifier)). */
    codeChallenge: text('code_challenge').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The login the code was redeemed into: a replayed code revokes it (RFC 6749 section 4.1.2). */
    sessionId: uuid('session_id').references(() => authSessions.id, { onDelete: 'set null' }),
  },
  (t) => [index('oauth_codes_user_client_idx').on(t.userId, t.clientId)],
);
