/**
 * A local HTTP server that answers like api.stripe.com for the calls the store and subscriptions make, so the
 * official SDK is exercised for real (its host and port point here): POST /v1/accounts, /v1/account_links,
 * /v1/checkout/sessions and /v1/subscriptions/{id}. It checks the secret key, replays an Idempotency-Key's
 * first answer, and records every call for the test to inspect.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

export interface StripeStandIn {
  port: number;
  calls: StripeCall[];
  close(): Promise<void>;
}

/** The `metadata[key]` fields of a form-encoded Stripe request, as the object Stripe would store. */
function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [field, value] of Object.entries(form)) {
    const key = /^metadata\[(.+)\]$/.exec(field)?.[1];
    if (key) metadata[key] = value;
  }
  return metadata;
}

/** Stripe's answer to one call, or null for a URL Stripe would not recognise. */
function answer(method: string, url: string, form: Record<string, string>): Record<string, unknown> | null {
  if (method !== 'POST') return null;
  const now = Math.floor(Date.now() / 1000);
  if (url === '/v1/accounts') {
    return { id: `acct_${randomBytes(8).toString('hex')}`, object: 'account', type: form.type, metadata: metadataOf(form) };
  }
  if (url === '/v1/account_links') {
    return {
      object: 'account_link',
      created: now,
      expires_at: now + 300,
      url: `https://connect.stripe.com/setup/e/${form.account}/${randomBytes(6).toString('hex')}`,
    };
  }
  if (url === '/v1/checkout/sessions') {
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    return {
      id,
      object: 'checkout.session',
      mode: form.mode,
      amount_total: Number(form['line_items[0][price_data][unit_amount]']),
      currency: form['line_items[0][price_data][currency]'],
      client_reference_id: form.client_reference_id,
      metadata: metadataOf(form),
      payment_status: 'unpaid',
      url: `https://checkout.stripe.com/c/pay/${id}`,
    };
  }
  const subscription = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(url);
  if (subscription) return { id: subscription[1], object: 'subscription', status: 'active', cancel_at_period_end: form.cancel_at_period_end === 'true' };
  return null;
}

export async function startStripeStandIn(secretKey: string): Promise<StripeStandIn> {
  const calls: StripeCall[] = [];
  const byIdempotencyKey = new Map<string, unknown>();
  let counter = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const method = req.method ?? '';
      const url = req.url ?? '';
      calls.push({ method, path: url, headers: req.headers, form });
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++counter}` }).end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && byIdempotencyKey.has(key)) return reply(200, byIdempotencyKey.get(key));
      const body = answer(method, url, form);
      if (!body) return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url})` } });
      if (typeof key === 'string') byIdempotencyKey.set(key, body);
      reply(200, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
