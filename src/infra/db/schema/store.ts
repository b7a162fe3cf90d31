/**
 * The store: products (albums, EPs, singles: a product is the release grouping of an artist's tracks), checkout
 * sessions, orders and the payout lines each order is split into, and artists' payout accounts at the
 * payment processor. Money is integer cents everywhere (src/platform/store/split.ts says how it is divided).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironment, users } from './auth.js';
import { albums, artists, releaseType, songwriters, tracks } from './catalog.js';

export const productStatus = pgEnum('store_product_status', ['active', 'archived']);
export const paymentProcessorName = pgEnum('payment_processor', ['sandbox', 'stripe']);
export const checkoutStatus = pgEnum('store_checkout_status', ['open', 'completed']);

export const storeProducts = pgTable(
  'store_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    /** The same kinds as a catalog release (releaseType, src/infra/db/schema/catalog.ts). */
    type: releaseType('type').notNull(),
    title: text('title').notNull(),
    /** The catalog release this product sells, if it sells one (its tracks are then the release's). */
    albumId: uuid('album_id').references(() => albums.id, { onDelete: 'set null' }),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: productStatus('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('store_products_artist_idx').on(t.artistId),
    index('store_products_album_idx').on(t.albumId),
    check('store_products_price_range', sql`${t.priceCents} BETWEEN 50 AND 100000000`),
    check('store_products_currency_format', sql`${t.currency} ~ '^[a-z]{3}$'`),
  ],
);

/** The tracks a product sells, in order. */
export const storeProductTracks = pgTable(
  'store_product_tracks',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => storeProducts.id, { onDelete: 'cascade' }),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.trackId] }), index('store_product_tracks_track_idx').on(t.trackId)],
);

/** An artist's account at a processor (a Stripe Connect Express account, or the sandbox's stand-in). */
export const storePayoutAccounts = pgTable(
  'store_payout_accounts',
  {
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    processor: paymentProcessorName('processor').notNull(),
    accountId: text('account_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.processor] })],
);

export const storeCheckoutSessions = pgTable(
  'store_checkout_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => storeProducts.id, { onDelete: 'restrict' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
    platformFeeCents: integer('platform_fee_cents').notNull(),
    currency: text('currency').notNull(),
    processor: paymentProcessorName('processor').notNull(),
    /** Real money: true only when a live processor (Stripe) takes it; a sandbox payment never is (migration 0031). */
    livemode: boolean('livemode').notNull(),
    /** The data space of the product sold (its artist's): a test key's checkouts are the sandbox's. */
    environment: apiKeyEnvironment('environment').notNull(),
    /** Null until the processor answered (a retry with the same Idempotency-Key finishes the job). */
    processorSessionId: text('processor_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request body the key was first used with: the same key with another body is refused. */
    requestHash: text('request_hash'),
    status: checkoutStatus('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('store_checkout_sessions_idempotency_idx')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    check('store_checkout_sessions_fee', sql`${t.platformFeeCents} >= 0 AND ${t.platformFeeCents} <= ${t.amountCents}`),
  ],
);

export const storeOrders = pgTable(
  'store_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** One order per checkout session, whatever the number of completion notices. */
    checkoutSessionId: uuid('checkout_session_id')
      .notNull()
      .unique()
      .references(() => storeCheckoutSessions.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => storeProducts.id, { onDelete: 'restrict' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
    platformFeeCents: integer('platform_fee_cents').notNull(),
    artistShareCents: integer('artist_share_cents').notNull(),
    currency: text('currency').notNull(),
    processor: paymentProcessorName('processor').notNull(),
    /** Real money (a live processor took it): only these count as revenue, payouts and KPIs. */
    livemode: boolean('livemode').notNull(),
    /** The data space of the product sold: orders are listed, and entitle, within it only. */
    environment: apiKeyEnvironment('environment').notNull(),
    /** The processor's id of the completion (Stripe event id, or the sandbox session id). */
    processorReference: text('processor_reference').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('store_orders_user_idx').on(t.userId, t.createdAt),
    index('store_orders_artist_idx').on(t.artistId, t.createdAt),
    // Revenue analytics read every order of a period (src/platform/analytics).
    index('store_orders_created_idx').on(t.createdAt),
    check('store_orders_split_whole', sql`${t.platformFeeCents} + ${t.artistShareCents} = ${t.amountCents}`),
  ],
);

/**
 * The artist share of an order divided by track, then by the track's songwriter splits, frozen at the sale.
 * songwriter_id null: the part of a track without credits, kept by the artist.
 */
export const storePayoutLines = pgTable(
  'store_payout_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => storeOrders.id, { onDelete: 'cascade' }),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'restrict' }),
    songwriterId: uuid('songwriter_id').references(() => songwriters.id, { onDelete: 'restrict' }),
    /** The credit's share of the track, in basis points (100% = 10000). */
    splitBasisPoints: integer('split_basis_points').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [index('store_payout_lines_order_idx').on(t.orderId), check('store_payout_lines_amount', sql`${t.amountCents} >= 0`)],
);
