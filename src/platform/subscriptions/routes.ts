/** POST/GET /v1/subscriptions and the sandbox processor's subscription pages. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { PAGE_CSP, escapeHtml, sandboxPage } from '../../http/html-page.js';
import { IdParams, Nullable, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { SANDBOX_SUBSCRIPTION_PAGE_PREFIX } from '../../infra/payments/sandbox-processor.js';
import { pageOf } from '../../pagination.js';
import { PLANS, PRO_PLAN, type SubscriptionsService } from './subscriptions.service.js';

const Subscription = Type.Object(
  {
    id: Type.String(),
    plan: Type.String(),
    status: StringEnum(['open', 'active', 'expired', 'cancelled'] as const, {
      description: 'open: not paid yet; active: paid, the account is Pro; expired: never paid; cancelled: ended, the account is free again',
    }),
    processor: StringEnum(['sandbox', 'stripe'] as const),
    livemode: Type.Boolean({ description: 'paid for real (Stripe); false for a sandbox (demo store) subscription, which is never revenue' }),
    session_id: Nullable(Type.String({ description: 'the processor’s checkout session id' })),
    checkout_url: Nullable(Type.String({ format: 'uri', description: 'where the user pays (while open)' })),
    amount: Type.Number(),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    interval: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    activated_at: Nullable(Type.String({ format: 'date-time' })),
    cancel_at_period_end: Type.Boolean({ description: 'cancelled by its user, ending when the paid period ends (Stripe); the account is Pro until then' }),
    ended_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'Subscription' },
);

const PRICE = `${(PRO_PLAN.amountCents / 100).toFixed(2)} ${PRO_PLAN.currency.toUpperCase()} a ${PRO_PLAN.interval}`;

export function subscriptionsRoutes(subscriptions: SubscriptionsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/subscriptions',
      {
        schema: {
          tags: ['subscriptions'],
          summary: 'Opens a checkout for the Pro plan; the account becomes Pro once it is paid',
          description: [
            `Pro costs ${PRICE}; the server sets the price. The checkout is a subscription at the payment processor: Stripe (a Checkout Session in subscription mode) when the server is configured with it. Without Stripe it answers 503 PLATFORM_PAYMENTS_UNAVAILABLE, unless the operator runs a demo store (STATION_STORE_SANDBOX_LIVE): then the built-in sandbox takes it (checkout_url is a page with a Pay button) with livemode false, never revenue. A sandbox credential (/sandbox/v1) answers 403.`,
            'Once paid (the sandbox page, or Stripe’s checkout.session.completed at POST /v1/store/webhooks/stripe), GET /v1/users/me shows plan "pro" and the event user.subscribed {user_id, plan, amount} is sent, once.',
            'The same unpaid checkout is answered again for a day (retries and concurrent calls open one). From a login session only (an API key or an app token answers 403); an account that is Pro already answers 409 PLATFORM_ALREADY_SUBSCRIBED.',
          ].join(' '),
          body: Type.Object({ plan: StringEnum(PLANS) }, { additionalProperties: false }),
          response: { 200: Subscription },
        },
      },
      async (request) => subscriptions.subscribe(request.principal!, request.body.plan),
    );

    app.get(
      '/v1/subscriptions',
      {
        schema: {
          tags: ['subscriptions'],
          summary: 'The caller’s subscription checkouts, newest first',
          description: 'From a login session only.',
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(Subscription, 'SubscriptionList') },
        },
      },
      async (request) => subscriptions.list(request.principal!, pageOf(request.query)),
    );

    app.post(
      '/v1/subscriptions/:id/cancel',
      {
        schema: {
          tags: ['subscriptions'],
          summary: 'Cancels the caller’s active Pro subscription',
          description: [
            'With Stripe the subscription ends when the paid period ends (cancel_at_period_end: true; the account stays Pro until Stripe’s customer.subscription.deleted reaches POST /v1/store/webhooks/stripe); the sandbox, which bills nothing, ends it at once and the account is free again.',
            'From a login session only; another user’s subscription answers 404, one never paid (open or expired) 409 PLATFORM_CONFLICT; cancelling again answers the cancelled subscription.',
          ].join(' '),
          params: IdParams('id'),
          response: { 200: Subscription },
        },
      },
      async (request) => subscriptions.cancel(request.principal!, request.params.id),
    );

    // ---- the sandbox processor's pages (public: the signed token in the link is the capability) ----
    await app.register(async (plain) => {
      plain.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      const pages = plain.withTypeProvider<TypeBoxTypeProvider>();
      const html = (body: string, title: string) => sandboxPage(title, body);
      pages.get(
        `${SANDBOX_SUBSCRIPTION_PAGE_PREFIX}/checkout/:session_id`,
        {
          config: { public: true },
          schema: {
            tags: ['subscriptions'],
            summary: 'Sandbox processor: the Pro checkout page (HTML, with a Pay button)',
            params: IdParams('session_id'),
            querystring: Type.Object({ token: Type.Optional(Type.String()) }),
            produces: ['text/html'],
          },
        },
        async (request, reply) => {
          const id = request.params.session_id;
          const token = request.query.token;
          const row = await subscriptions.sandboxCheckout(id, token);
          const price = `${(row.amountCents / 100).toFixed(2)} ${row.currency.toUpperCase()} a ${row.interval}`;
          const body =
            row.status === 'open'
              ? `<h1>${escapeHtml(PRO_PLAN.title)}</h1><p><strong>${price}</strong></p>
<form method="post" action="${SANDBOX_SUBSCRIPTION_PAGE_PREFIX}/checkout/${encodeURIComponent(id)}/pay"><input type="hidden" name="token" value="${escapeHtml(token ?? '')}"><button type="submit">Subscribe</button></form>`
              : `<h1>${row.status === 'active' ? 'Already subscribed' : 'This checkout expired'}</h1>`;
          return reply
            .type('text/html; charset=utf-8')
            .header('Content-Security-Policy', PAGE_CSP)
            .header('Cache-Control', 'no-store')
            .send(html(body, 'Subscribe'));
        },
      );
      pages.post(
        `${SANDBOX_SUBSCRIPTION_PAGE_PREFIX}/checkout/:session_id/pay`,
        {
          config: { public: true, csrfExempt: true },
          schema: {
            tags: ['subscriptions'],
            summary: 'Sandbox processor: pays the Pro checkout (the form of the checkout page; token from its link)',
            params: IdParams('session_id'),
            body: Type.Object({ token: Type.String({ maxLength: 200 }) }),
            produces: ['text/html'],
          },
          // A link that names no session, or a token that does not verify, is 404 whatever the body.
          preValidation: async (request) => {
            const { session_id: id } = request.params as { session_id: string };
            const token = (request.body as { token?: unknown } | undefined)?.token;
            if (!subscriptions.sandbox.verify('subscription', id, typeof token === 'string' ? token : undefined))
              throw Errors.notFound('Subscription checkout', id);
          },
        },
        async (request, reply) => {
          const row = await subscriptions.payInSandbox(request.params.session_id, request.body.token);
          const body =
            row.status === 'active'
              ? `<h1>Welcome to ${escapeHtml(PRO_PLAN.title)}</h1><p>Subscription <code>${escapeHtml(row.id)}</code> is active.</p>`
              : '<h1>This account is on the Pro plan already</h1>';
          return reply
            .type('text/html; charset=utf-8')
            .header('Content-Security-Policy', PAGE_CSP)
            .header('Cache-Control', 'no-store')
            .send(html(body, 'Subscribed'));
        },
      );
    });
  };
}
