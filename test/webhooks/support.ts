/**
 * A real HTTP receiver (node:http on an ephemeral port) and helpers for the webhook suites. Event data
 * carries a random nonce: with REDIS_URL every station on the Redis sees every bus message, so suites
 * running side by side must only count their own events.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Station } from '../../src/app.js';
import { randomClientIp } from '../foundation/support.js';
import { pollUntil } from '../helpers/poll.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers: a status, optionally once `until` settles and/or after a delay, optionally with headers. */
export interface Answer {
  status: number;
  /** Holds the answer until this settles (a gate the test opens; one never opened keeps the request hanging). */
  until?: Promise<unknown>;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests whose body contains `marker`. */
  matching(marker: string): Received[];
  waitFor(marker: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (request: Received) => Answer | number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const given = answer(request);
      const { status, until, delayMs = 0, headers = {} } = typeof given === 'number' ? { status: given } : given;
      void Promise.resolve(until).finally(() =>
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(status, headers).end('ok');
        }, delayMs),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const matching = (marker: string) => received.filter((r) => r.body.includes(marker));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    matching,
    async waitFor(marker, count, timeoutMs = 10_000) {
      await until(() => matching(marker).length >= count, timeoutMs, `${count} request(s) carrying ${marker}`);
      return matching(marker);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await pollUntil(what, condition, Boolean, timeoutMs, 20);
}

/** A promise the test resolves by hand (open()). */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export const nonce = () => `n-${randomBytes(8).toString('hex')}`;

export function hmac(secret: string, text: string): string {
  return `sha256=${createHmac('sha256', secret).update(text, 'utf8').digest('hex')}`;
}

export interface Caller {
  token: string;
  csrf: string;
  userId: string;
}

export const headersOf = (caller: Caller) => ({ authorization: `Bearer ${caller.token}`, 'x-csrf-token': caller.csrf });

/** A developer (holds webhooks:read and webhooks:write) logged in on the platform. */
export async function developer(station: Station): Promise<Caller> {
  const email = `dev-${randomBytes(5).toString('hex')}@example.com`;
  const password = 'developer-password';
  await station.auth.createUser({ email, password, role: 'developer', displayName: 'Test Developer' });
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: randomClientIp(),
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`developer login failed: ${response.body}`);
  const body = response.json();
  return { token: body.token, csrf: body.csrf_token, userId: body.user.id };
}

export async function registerWebhook(station: Station, caller: Caller, url: string, events: string[]) {
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: headersOf(caller),
    payload: { url, events },
  });
  if (response.statusCode !== 201) throw new Error(`webhook registration failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; url: string; events: string[]; secret: string };
}

export interface Attempt {
  id: string;
  event: string;
  webhook_message_id: string;
  attempt: number;
  status: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number | null;
  next_attempt_at: string;
  attempted_at: string | null;
  delivered_at: string | null;
}

export async function attemptsOf(station: Station, caller: Caller, webhookId: string): Promise<Attempt[]> {
  const response = await station.http.inject({
    method: 'GET',
    url: `/v1/webhooks/${webhookId}/deliveries?limit=100`,
    headers: headersOf(caller),
  });
  if (response.statusCode !== 200) throw new Error(`deliveries failed: ${response.statusCode} ${response.body}`);
  return (response.json().data as Attempt[]).sort((a, b) => a.attempt - b.attempt);
}

/** The attempts of one message (X-Webhook-Id), once `count` of them exist and none is still pending. */
export async function settledAttempts(
  station: Station,
  caller: Caller,
  webhookId: string,
  messageId: string,
  count: number,
  timeoutMs = 5_000,
): Promise<Attempt[]> {
  let attempts: Attempt[] = [];
  await until(
    async () => {
      attempts = (await attemptsOf(station, caller, webhookId)).filter((a) => a.webhook_message_id === messageId);
      return attempts.length >= count && attempts.every((a) => a.status !== 'pending');
    },
    timeoutMs,
    `${count} settled attempt(s) of ${messageId}`,
  );
  return attempts;
}
