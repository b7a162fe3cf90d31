/** The store's HTTP shapes (validated, typed and documented by the same TypeBox schemas): products, checkout sessions, orders, payouts, onboarding links. */
import { Type } from '@fastify/type-provider-typebox';
import { Nullable, OpaqueId, StringEnum } from '../../http/schemas.js';
import { MAX_PRODUCT_TRACKS, PRODUCT_TYPES } from './store.views.js';

export const SPLIT_NOTE =
  'Money is integer cents. A sale splits into platform_fee_cents = floor(amount_cents x 15 / 100) and artist_share_cents = ' +
  'the rest (the artist gets at least 85%). The artist share is divided equally among the product’s tracks, and each track’s ' +
  'part among its songwriter credits in proportion to split_pct, by largest remainder: every part is rounded down and the ' +
  'cents left over go one each to the largest fractional remainders, so the parts always sum to the whole. A track without ' +
  'credits is kept by the artist (songwriter_id null).';

export const Product = Type.Object(
  {
    id: Type.String(),
    type: StringEnum(PRODUCT_TYPES),
    title: Type.String(),
    album_id: Nullable(Type.String({ description: 'the catalog release the product sells (GET /v1/albums/{id}); null for a hand-picked set of tracks' })),
    artist_id: Type.String(),
    artist_slug: Type.String(),
    artist: Type.String({ description: 'artist name' }),
    price: Type.Number({ description: 'in currency units, e.g. 9.99' }),
    price_cents: Type.Integer(),
    currency: Type.String(),
    status: StringEnum(['active', 'archived'] as const),
    tracks: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), duration: Type.Integer({ description: 'seconds' }), position: Type.Integer() })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'StoreProduct' },
);

export const Price = Type.Number({ minimum: 0.5, maximum: 1_000_000, description: 'in currency units with at most two decimals (9.99)' });
export const TrackIds = Type.Array(OpaqueId, { minItems: 1, maxItems: MAX_PRODUCT_TRACKS, description: 'the artist’s published tracks, in order' });
export const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const CheckoutSession = Type.Object(
  {
    session_id: Type.String({ description: 'the payment processor’s checkout session id' }),
    checkout_url: Type.String({ format: 'uri', description: 'the page where the buyer pays' }),
    processor: StringEnum(['sandbox', 'stripe'] as const),
    product_id: Type.String(),
    amount: Type.Number(),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    status: StringEnum(['open', 'completed'] as const),
  },
  { title: 'CheckoutSession' },
);

export const Order = Type.Object(
  {
    id: Type.String(),
    product_id: Type.String(),
    user_id: Type.String(),
    amount: Type.Number(),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    processor: StringEnum(['sandbox', 'stripe'] as const),
    livemode: Type.Boolean({ description: 'paid for real (Stripe); false for every sandbox order, a demo store’s included' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Order' },
);

export const Payout = Type.Object(
  {
    order_id: Type.String(),
    product_id: Type.String(),
    artist_id: Type.String(),
    sold_at: Type.String({ format: 'date-time' }),
    currency: Type.String(),
    amount_cents: Type.Integer(),
    platform_fee_cents: Type.Integer({ description: '15%, rounded down' }),
    artist_share_cents: Type.Integer({ description: 'amount_cents - platform_fee_cents' }),
    splits: Type.Array(
      Type.Object({
        track_id: Type.String(),
        track_title: Type.String(),
        songwriter_id: Nullable(Type.String()),
        songwriter_name: Nullable(Type.String()),
        split_pct: Type.Number({ description: 'the credit’s share of the track' }),
        amount_cents: Type.Integer(),
      }),
      { description: 'the artist share divided; the amounts sum to artist_share_cents' },
    ),
  },
  { title: 'Payout' },
);

export const OnboardingLink = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'where the artist sets up their payout account' }),
    artist_id: Type.String(),
    processor: StringEnum(['sandbox', 'stripe'] as const),
    expires_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'OnboardingLink' },
);
