/**
 * The store's routes: GET/POST /v1/store/products, GET/PATCH /v1/store/products/{id}, POST /v1/checkout (alias
 * POST /api/checkout), GET /v1/store/orders, GET /v1/store/downloads/{id}, POST /v1/connect/onboard (alias
 * POST /api/connect/onboard), GET /v1/payouts, the Stripe webhook; the sandbox processor's pages are
 * src/platform/store/sandbox-pages.ts, registered here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isAdmin } from '../../auth/principal.js';
import { DomainError } from '../../errors.js';
import { IdParams, Nullable, OpaqueId, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { sandboxPages, type SandboxPagesPort } from './sandbox-pages.js';
import { WebhookVerificationError } from '../../infra/payments/processor.js';
import type { CheckoutService } from './checkout.service.js';
import type { PayoutsService } from './payouts.service.js';
import type { ProductsService } from './products.service.js';
import type { PurchasesService } from './purchases.service.js';
import type { StoreCaller } from './store.types.js';
import { CURRENCIES, PRODUCT_TYPES, centsToPrice } from './store.views.js';
import { CheckoutSession, OnboardingLink, Order, Payout, Price, Product, SPLIT_NOTE, Title, TrackIds } from './schemas.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function callerOf(request: FastifyRequest): StoreCaller {
  const principal = request.principal!;
  return { userId: principal.userId, isAdmin: isAdmin(principal), apiKeyId: principal.apiKeyId, environment: principal.environment };
}

/** The store's services, one per idea (module.ts builds them). */
export interface StoreServices {
  products: ProductsService;
  checkout: CheckoutService;
  purchases: PurchasesService;
  payouts: PayoutsService;
}

/** The sandbox pages' view of checkout: amounts formatted as the pages print them. */
function sandboxPagesOf(checkout: CheckoutService): SandboxPagesPort {
  const amount = (cents: number, currency: string) => `${centsToPrice(cents).toFixed(2)} ${currency.toUpperCase()}`;
  return {
    verify: (purpose, id, token) => checkout.sandbox.verify(purpose, id, token),
    async checkoutPage(id, token) {
      const { session, view } = await checkout.sandboxCheckoutPage(id, token);
      return {
        title: view.product.title,
        artistName: view.artist.name,
        amount: amount(session.amountCents, session.currency),
        completed: session.status === 'completed',
      };
    },
    async pay(id, token) {
      const order = await checkout.payInSandbox(id, token);
      return { orderId: order.id, amount: amount(order.amountCents, order.currency) };
    },
  };
}

export function storeRoutes({ products, checkout, purchases, payouts }: StoreServices) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/store/products',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['store'],
          summary: 'Albums, EPs and singles for sale, newest first',
          description:
            'A product is of its artist’s environment: a test key sees, sells and buys the sandbox’s products only, every other credential the live ones.',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'artist slug or id' })),
                type: Type.Optional(StringEnum(PRODUCT_TYPES)),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(Product, 'StoreProductList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return {
          ...(await products.listProducts(
            { environment: request.principal!.environment, artist: request.query.artist, type: request.query.type },
            limit,
            offset,
          )),
          page,
          limit,
        };
      },
    );

    app.get(
      '/v1/store/products/:id',
      {
        config: { scope: 'tracks:read' },
        schema: { tags: ['store'], summary: 'A product (an archived one only for its artist and admins)', params: IdParams('id'), response: { 200: Product } },
      },
      async (request) => products.getProduct(request.params.id, callerOf(request)),
    );

    app.post(
      '/v1/store/products',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['store'],
          summary: 'Puts an album, EP or single of the artist’s tracks on sale at the artist’s price',
          description:
            'artist_id (id or slug) is needed only by admins and by accounts that manage several artists. Every track must be the ' +
            'artist’s and published, and its songwriter credits must sum to 100% (or be absent): otherwise 409 PLATFORM_SPLITS_INVALID. ' +
            'With `album_id` (id or slug of one of the artist’s releases, else 404) the product sells that release: title, type and ' +
            'tracks default to the release’s (its published tracks in order); without it they are required (400). With a test key the ' +
            'caller acts as the sandbox copies of its artists (same slugs, made on first use) and sells their sandbox tracks.',
          body: Type.Object(
            {
              title: Type.Optional(Title),
              type: Type.Optional(StringEnum(PRODUCT_TYPES)),
              price: Price,
              currency: Type.Optional(StringEnum(CURRENCIES, { default: 'usd' })),
              track_ids: Type.Optional(TrackIds),
              artist_id: Type.Optional(OpaqueId),
              album_id: Type.Optional(OpaqueId),
            },
            { additionalProperties: false },
          ),
          response: { 201: Product },
        },
      },
      async (request, reply) => reply.status(201).send(await products.createProduct(callerOf(request), request.body)),
    );

    app.patch(
      '/v1/store/products/:id',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['store'],
          summary: 'Changes a product’s title, price, tracks or status (its artist or an admin only; 403 for others)',
          params: IdParams('id'),
          body: Type.Object(
            {
              title: Type.Optional(Title),
              price: Type.Optional(Price),
              status: Type.Optional(StringEnum(['active', 'archived'] as const)),
              track_ids: Type.Optional(TrackIds),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Product },
        },
        // An id that names nothing is 404 whatever the body (contract: ids are opaque).
        preValidation: async (request) => {
          await products.getProduct((request.params as { id: string }).id, callerOf(request));
        },
      },
      async (request) => products.updateProduct(callerOf(request), request.params.id, request.body),
    );

    const checkoutSchema = {
      tags: ['store'],
      summary: 'Opens a checkout session at the payment processor for a product',
      description:
        'The server sets the price: a `price` other than the product’s answers 409 PLATFORM_PRICE_MISMATCH, and `user_id` must be ' +
        'the caller (403). With an `Idempotency-Key` header (1 to 255 printable characters), the same key and body answer the same ' +
        'session and one order at most is ever made of it; the same key with another body answers 409 ' +
        'PLATFORM_IDEMPOTENCY_KEY_REUSED. Test keys always use the sandbox processor; live checkouts use Stripe when the server ' +
        'is configured with it (the artist must have onboarded: else 409 PLATFORM_ARTIST_NOT_ONBOARDED). Without Stripe a live ' +
        'checkout answers 503 PLATFORM_PAYMENTS_UNAVAILABLE, unless the operator runs a demo store (STATION_STORE_SANDBOX_LIVE): ' +
        'then the sandbox takes it and its order has `livemode: false` (never revenue nor payouts). The buyer pays at ' +
        '`checkout_url`; the order then appears in GET /v1/store/orders and `payment.success` is sent.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: '^[\\x21-\\x7e]{1,255}$' })) }),
      body: Type.Object({ product_id: OpaqueId, price: Type.Number({ minimum: 0 }), user_id: OpaqueId }, { additionalProperties: false }),
      response: { 200: CheckoutSession },
    };
    for (const url of ['/v1/checkout', '/api/checkout']) {
      app.post(url, { config: { scope: 'store:orders' }, schema: checkoutSchema }, async (request) => {
        const key = request.headers['idempotency-key'];
        const idempotencyKey = typeof key === 'string' && IDEMPOTENCY_KEY.test(key) ? key : null;
        return checkout.checkout(callerOf(request), request.body, idempotencyKey);
      });
    }

    app.get(
      '/v1/store/orders',
      {
        config: { scope: 'store:orders' },
        schema: {
          tags: ['store'],
          summary: 'The caller’s orders, newest first',
          description:
            'Orders of the caller’s environment only: a test key lists the sandbox’s, every other credential the live ones. ' +
            '`livemode` is true only for an order paid for real (Stripe); sandbox orders, a demo store’s included, never count as revenue or payouts.',
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(Order, 'OrderList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await purchases.orders(callerOf(request), limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/store/downloads/:id',
      {
        config: { scope: 'store:orders' },
        schema: {
          tags: ['store'],
          summary: 'A signed, expiring download link to a purchased track (the id is the track’s)',
          description:
            'Only for a user who bought a product with this track, in the caller’s environment: anyone else gets 404. The link is valid ' +
            'about 15 minutes and serves the track’s master as uploaded (WAV or MP3), or for a track without one its highest-quality ' +
            'rendition copied under a download key: never the object GET /v1/tracks/{id}/stream hands out.',
          params: IdParams('id'),
          response: {
            200: Type.Object(
              {
                track_id: Type.String(),
                order_id: Type.String(),
                title: Type.String(),
                url: Type.String({ format: 'uri' }),
                expires_at: Type.String({ format: 'date-time' }),
              },
              { title: 'Download' },
            ),
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return purchases.download(callerOf(request), request.params.id);
      },
    );

    const onboardSchema = {
      tags: ['store'],
      summary: 'An onboarding link for the calling artist’s payout account (Stripe Connect Express, or the sandbox)',
      body: Type.Optional(Type.Object({ artist_id: Type.Optional(OpaqueId) }, { additionalProperties: false })),
      response: { 200: OnboardingLink },
    };
    for (const url of ['/v1/connect/onboard', '/api/connect/onboard']) {
      app.post(url, { config: { scope: 'artist' }, schema: onboardSchema }, async (request) => payouts.onboard(callerOf(request), request.body?.artist_id));
    }

    app.get(
      '/v1/payouts',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['store'],
          summary: 'The artist’s payout history: each sale’s 85/15 split, then the artist share by songwriter credits',
          description: `${SPLIT_NOTE} Admins see every artist (or one with \`artist\`); test keys see sandbox sales only, other callers live sales only.`,
          querystring: Type.Composite(
            [PageQuery, Type.Object({ artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'artist id or slug' })) })],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(Payout, 'PayoutList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await payouts.payouts(callerOf(request), request.query.artist, limit, offset)), page, limit };
      },
    );

    // ---- Stripe webhook: the raw body is what Stripe signed, so this route reads it unparsed ----
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
      raw.post(
        '/v1/store/webhooks/stripe',
        {
          config: { public: true, csrfExempt: true },
          schema: {
            tags: ['store'],
            summary: 'Stripe events (checkout.session.completed creates the order, or activates a Pro subscription)',
            description:
              'Verified with Stripe-Signature (HMAC-SHA256 with STRIPE_WEBHOOK_SECRET) at most 300 s old; anything else answers 400 ' +
              'PLATFORM_WEBHOOK_SIGNATURE_INVALID and changes nothing. 404 when Stripe is not configured.',
            response: { 200: Type.Object({ received: Type.Boolean(), order_id: Nullable(Type.String()) }) },
          },
        },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          try {
            return await checkout.stripeWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined, request.log);
          } catch (error) {
            if (error instanceof WebhookVerificationError) {
              request.log.warn({ reason: error.message }, 'stripe webhook refused');
              throw new DomainError('invalid', 'WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not verify', error.message);
            }
            throw error;
          }
        },
      );
    });

    // ---- the sandbox processor's pages (src/platform/store/sandbox-pages.ts) ----
    await app.register(sandboxPages(sandboxPagesOf(checkout)));
  };
}
