/**
 * The sandbox payment processor's pages (public: the signed token in the link is the capability): the
 * checkout page with its Pay form, the payment it posts, and the payout onboarding page. Moved out of the
 * store's routes: the pages are the sandbox processor's stand-in for Stripe's hosted pages, and know the
 * store only through SandboxPagesPort.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { PAGE_CSP, escapeHtml, sandboxPage as page } from '../../http/html-page.js';
import { IdParams } from '../../http/schemas.js';
import { SANDBOX_PAGE_PREFIX } from '../../infra/payments/sandbox-processor.js';

/** A checkout session as its page shows it; `amount` is already formatted ("9.99 USD"). */
export interface SandboxCheckoutView {
  title: string;
  artistName: string;
  amount: string;
  completed: boolean;
}

/** What the pages need of the store: token checks, the session to show, and its payment. */
export interface SandboxPagesPort {
  verify(purpose: 'checkout' | 'onboarding', id: string, token: string | undefined): boolean;
  /** 404 (a DomainError) for a token that does not verify or a session that does not exist. */
  checkoutPage(processorSessionId: string, token: string | undefined): Promise<SandboxCheckoutView>;
  /** Completes the session (once); answers the order with its formatted amount. */
  pay(processorSessionId: string, token: string): Promise<{ orderId: string; amount: string }>;
}

export function sandboxPages(store: SandboxPagesPort) {
  return async function register(pages: FastifyInstance) {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const Params = IdParams('session_id');
    pages.get(
      `${SANDBOX_PAGE_PREFIX}/checkout/:session_id`,
      {
        config: { public: true },
        schema: {
          tags: ['store'],
          summary: 'Sandbox processor: the checkout page a buyer visits (HTML, with a Pay button)',
          params: Params,
          querystring: Type.Object({ token: Type.Optional(Type.String()) }),
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const { session_id: id } = request.params as { session_id: string };
        const token = (request.query as { token?: string }).token;
        const view = await store.checkoutPage(id, token);
        const body = view.completed
          ? `<h1>Already paid</h1><p>${escapeHtml(view.title)} — ${view.amount}</p>`
          : `<h1>${escapeHtml(view.title)}</h1><p>by ${escapeHtml(view.artistName)}</p><p><strong>${view.amount}</strong></p>
<form method="post" action="${SANDBOX_PAGE_PREFIX}/checkout/${encodeURIComponent(id)}/pay"><input type="hidden" name="token" value="${escapeHtml(token ?? '')}"><button type="submit">Pay</button></form>`;
        return reply
          .type('text/html; charset=utf-8')
          .header('Content-Security-Policy', PAGE_CSP)
          .header('Cache-Control', 'no-store')
          .send(page('Checkout', body));
      },
    );
    pages.post(
      `${SANDBOX_PAGE_PREFIX}/checkout/:session_id/pay`,
      {
        config: { public: true, csrfExempt: true },
        schema: {
          tags: ['store'],
          summary: 'Sandbox processor: pays the checkout (the form of the checkout page; token from its link)',
          params: Params,
          body: Type.Object({ token: Type.String({ maxLength: 200 }) }),
          produces: ['text/html'],
        },
        // A link that names no session, or a token that does not verify, is 404 whatever the body.
        preValidation: async (request) => {
          const { session_id: id } = request.params as { session_id: string };
          const token = (request.body as { token?: unknown } | undefined)?.token;
          if (!store.verify('checkout', id, typeof token === 'string' ? token : undefined)) throw Errors.notFound('Checkout session', id);
        },
      },
      async (request, reply) => {
        const { session_id: id } = request.params as { session_id: string };
        const order = await store.pay(id, (request.body as { token: string }).token);
        const body = `<h1>Payment complete</h1><p>Order <code>${escapeHtml(order.orderId)}</code>: ${order.amount}.</p>`;
        return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', PAGE_CSP).header('Cache-Control', 'no-store').send(page('Paid', body));
      },
    );
    pages.get(
      `${SANDBOX_PAGE_PREFIX}/onboarding/:account_id`,
      {
        config: { public: true },
        schema: {
          tags: ['store'],
          summary: 'Sandbox processor: the payout onboarding page (the sandbox account is ready at once)',
          params: IdParams('account_id'),
          querystring: Type.Object({ token: Type.Optional(Type.String()) }),
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const { account_id: id } = request.params as { account_id: string };
        if (!store.verify('onboarding', id, (request.query as { token?: string }).token)) {
          throw Errors.notFound('Onboarding link', id);
        }
        return reply
          .type('text/html; charset=utf-8')
          .header('Content-Security-Policy', PAGE_CSP)
          .send(page('Payout account', `<h1>Payout account ready</h1><p>Sandbox account <code>${escapeHtml(id)}</code> receives 85% of each sale.</p>`));
      },
    );
  };
}
