/**
 * STATION_WEBHOOK_ALLOWED_HOSTS through the product, with real receivers on 127.0.0.1: the default policy
 * refuses loopback, private, metadata and mapped addresses at registration (POST /v1/webhooks and training's
 * notify_webhook) and again at delivery (DNS rebinding, a policy tightened after registration); `loopback`
 * and CIDR entries let exactly what they name through; the delivery log shows coarse errors only.
 */
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationEvents } from '../../src/station/events/station-events.js';
import { webhookDeliveries } from '../../src/infra/db/schema/index.js';
import { systemResolver, type HostResolver, EgressPolicy } from '../../src/infra/egress/egress-policy.js';
import { parseAllowList } from '../../src/infra/egress/allow-list.js';
import { sendSignedPost } from '../../src/platform/webhooks/delivery.js';
import { authHeaders, buildTestStation, createTestDatabase, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { developer, headersOf, nonce, registerWebhook, settledAttempts, startReceiver, until, attemptsOf, type Caller, type Receiver } from './support.js';

/** Names this suite controls (DNS rebinding is simulated through them); any other name goes to the system resolver. */
const dns: Record<string, string[]> = {};
const resolveHost: HostResolver = async (hostname) => {
  const records = dns[hostname];
  if (!records) return systemResolver(hostname);
  return records.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

// Short enough for the silent receiver's timeout, long enough that a loaded machine still tells it from a refused connection.
const FAST_WEBHOOKS = { timeoutMs: 2_000, retry: { maxAttempts: 1 } };

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

async function station(env: Record<string, string> = {}, options: Parameters<typeof buildTestStation>[1] = {}): Promise<TestStation> {
  const built = await buildTestStation(env, { resolveHost, webhooks: FAST_WEBHOOKS, fakeEngine: true, ...options });
  cleanups.push(() => built.destroy());
  return built;
}

const register = (s: TestStation, caller: Caller, url: string, events = ['station.radio.enabled']) =>
  s.http.inject({ method: 'POST', url: '/v1/webhooks', headers: headersOf(caller), payload: { url, events } });

/** Emits one station event carrying a fresh marker; answers the marker. */
async function emit(s: TestStation, event: 'station.radio.enabled' = 'station.radio.enabled'): Promise<string> {
  const marker = nonce();
  await new StationEvents(s.bus, s.clock).emit(event, { marker });
  return marker;
}

/** The settled first attempt of the newest delivery of a webhook. */
async function onlyAttempt(s: TestStation, caller: Caller, webhookId: string) {
  let messageId = '';
  await until(
    async () => {
      const attempts = await attemptsOf(s, caller, webhookId);
      messageId = attempts[0]?.webhook_message_id ?? '';
      return messageId !== '';
    },
    5_000,
    'a delivery attempt',
  );
  const [attempt] = await settledAttempts(s, caller, webhookId, messageId, 1);
  return attempt;
}

describe('the default policy (external)', () => {
  let s: TestStation;
  let dev: Caller;
  let r: Receiver;

  beforeAll(async () => {
    s = await station();
    dev = await developer(s);
    r = await receiver();
  });

  it('refuses loopback, private, link-local, CGNAT, unspecified and mapped addresses at registration', async () => {
    const port = new URL(r.url).port;
    dns['internal.test'] = ['10.0.0.7', 'fd00::7'];
    const refused = [
      r.url,
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::ffff:7f00:1]:${port}/hook`,
      `http://[64:ff9b::127.0.0.1]:${port}/hook`,
      `http://2130706433:${port}/hook`, // 127.0.0.1 in decimal
      `http://0.0.0.0:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[fe80::1]/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://internal.test/hook',
    ];
    for (const url of refused) {
      const response = await register(s, dev, url);
      expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
      const { detail } = response.json().error;
      expect(detail, url).toContain('STATION_WEBHOOK_ALLOWED_HOSTS');
      expect(detail).not.toContain('10.0.0.7'); // the addresses a name resolves to are not disclosed
    }
    expect(r.received).toHaveLength(0);
  });

  it('accepts public addresses, and names that do not resolve (the delivery check decides)', async () => {
    dns['public.test'] = ['93.184.216.34'];
    expect((await register(s, dev, 'https://public.test/hook')).statusCode).toBe(201);
    expect((await register(s, dev, 'https://93.184.216.34/hook')).statusCode).toBe(201);
    expect((await register(s, dev, 'https://hooks.nowhere.invalid/hook')).statusCode).toBe(201);
  });

  it('refuses at delivery a name that passed registration and now resolves to loopback (DNS rebinding)', async () => {
    const port = new URL(r.url).port;
    dns['rebind.test'] = ['93.184.216.34'];
    const hook = await registerWebhook(s, dev, `http://rebind.test:${port}/hook`, ['station.radio.enabled']);
    dns['rebind.test'] = ['127.0.0.1'];
    const marker = await emit(s);
    const attempt = await onlyAttempt(s, dev, hook.id);
    expect(attempt).toMatchObject({ status: 'failed', error: 'refused_by_policy', response_status: null });
    expect(r.matching(marker)).toHaveLength(0);
  });

  it('shows attempts recorded by earlier versions with network error text as coarse kinds', async () => {
    dns['legacy.test'] = ['93.184.216.34'];
    const hook = await registerWebhook(s, dev, 'https://legacy.test/hook', ['track.published']);
    const legacy = [
      ['network error: connect ECONNREFUSED 10.1.2.3:5432', null, 'connection_failed'],
      ['timed out after 10000 ms', null, 'timeout'],
      ['HTTP 302 (redirects are not followed)', 302, 'http_302'],
    ] as const;
    await s.database.db.insert(webhookDeliveries).values(
      legacy.map(([error, responseStatus], index) => ({
        webhookId: hook.id,
        eventId: `legacy-${index}`,
        event: 'user.signup',
        payload: '{}',
        webhookMessageId: `msg_legacy${index}`,
        attempt: 1,
        status: 'failed' as const,
        responseStatus,
        error,
        nextAttemptAt: new Date(),
      })),
    );
    const shown = await attemptsOf(s, dev, hook.id);
    expect(shown.map((a) => a.error).sort()).toEqual(legacy.map(([, , coarse]) => coarse).sort());
  });

  it('refuses notify_webhook at job creation with STATION_VALIDATION_FAILED naming the variable', async () => {
    const admin = await staffLogin(s);
    for (const url of [r.url, 'http://[::ffff:169.254.169.254]/latest', 'http://localhost/hook']) {
      const response = await s.http.inject({
        method: 'POST',
        url: '/station/v1/training/jobs',
        headers: authHeaders(admin),
        payload: { model_type: 'audio', dataset_snapshot_id: 'snap-does-not-matter', notify_webhook: url },
      });
      expectEnvelope(response, 400, 'STATION_VALIDATION_FAILED');
      expect(response.json().error.detail).toContain('STATION_WEBHOOK_ALLOWED_HOSTS');
    }
  });

  it('refuses notify_webhook sends to loopback (sendSignedPost, as the training runner calls it)', async () => {
    const outcome = await sendSignedPost(r.url, 'station.training.job_completed', { job_id: 'j-1' }, 'secret', {
      egress: new EgressPolicy(parseAllowList('external')),
    });
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, error: 'refused_by_policy' });
    expect(r.received).toHaveLength(0);
  });
});

describe('a policy tightened after registration', () => {
  it('is applied at the next delivery', async () => {
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-egress-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const r = await receiver();

    const loose = await buildTestStation(
      { DATA_DIR: dataDir, STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' },
      { database: testDb, webhooks: FAST_WEBHOOKS, fakeEngine: true },
    );
    const dev = await developer(loose);
    const hook = await registerWebhook(loose, dev, r.url, ['station.radio.enabled']);
    await loose.destroy();

    const strict = await station({ DATA_DIR: dataDir }, { database: testDb });
    const marker = await emit(strict);
    const attempt = await onlyAttempt(strict, dev, hook.id);
    expect(attempt).toMatchObject({ status: 'failed', error: 'refused_by_policy' });
    expect(r.matching(marker)).toHaveLength(0);
  });
});

describe('STATION_WEBHOOK_ALLOWED_HOSTS=loopback', () => {
  let s: TestStation;
  let dev: Caller;

  beforeAll(async () => {
    s = await station({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    dev = await developer(s);
  });

  it('delivers to 127.0.0.1 and to a name resolving there, with the Host header naming it', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    dns['hooks.test'] = ['127.0.0.1'];
    await registerWebhook(s, dev, r.url, ['station.radio.enabled']);
    await registerWebhook(s, dev, `http://hooks.test:${port}/named`, ['station.radio.enabled']);
    expectEnvelope(await register(s, dev, 'http://10.0.0.1/'), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await register(s, dev, 'https://93.184.216.34/'), 400, 'PLATFORM_VALIDATION_FAILED'); // loopback alone: no public addresses
    const marker = await emit(s);
    const requests = await r.waitFor(marker, 2);
    expect(requests.map((q) => [q.path, q.headers.host]).sort()).toEqual([
      ['/hook', `127.0.0.1:${port}`],
      ['/named', `hooks.test:${port}`],
    ]);
  });

  it('records coarse errors only in the delivery log: connection_failed, timeout, http_<status>', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const silentSockets: Socket[] = [];
    const silent = createTcpServer((socket) => silentSockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      for (const socket of silentSockets) socket.destroy();
      return new Promise((resolve) => silent.close(resolve));
    });
    const silentPort = (silent.address() as AddressInfo).port;

    const unavailable = await receiver(() => 503);

    const event = 'station.radio.disabled';
    const refused = await registerWebhook(s, dev, `http://127.0.0.1:${closedPort}/hook`, [event]);
    const hanging = await registerWebhook(s, dev, `http://127.0.0.1:${silentPort}/hook`, [event]);
    const failing = await registerWebhook(s, dev, unavailable.url, [event]);
    await new StationEvents(s.bus, s.clock).emit(event, { marker: nonce() });

    expect(await onlyAttempt(s, dev, refused.id)).toMatchObject({ status: 'failed', error: 'connection_failed', response_status: null });
    expect(await onlyAttempt(s, dev, hanging.id)).toMatchObject({ status: 'failed', error: 'timeout', response_status: null });
    expect(await onlyAttempt(s, dev, failing.id)).toMatchObject({ status: 'failed', error: 'http_503', response_status: 503 });
  });
});

describe('a CIDR entry', () => {
  it('lets exactly its range through', async () => {
    const s = await station({ STATION_WEBHOOK_ALLOWED_HOSTS: 'external,127.0.0.1/32' });
    const dev = await developer(s);
    const r = await receiver();
    const port = new URL(r.url).port;
    const hook = await registerWebhook(s, dev, r.url, ['station.radio.enabled']);
    expect((await register(s, dev, `http://[::ffff:127.0.0.1]:${port}/mapped`, ['track.published'])).statusCode).toBe(201);
    expectEnvelope(await register(s, dev, `http://127.0.0.2:${port}/hook`), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await register(s, dev, `http://[::1]:${port}/hook`), 400, 'PLATFORM_VALIDATION_FAILED');
    const marker = await emit(s);
    await r.waitFor(marker, 1);
    expect(await onlyAttempt(s, dev, hook.id)).toMatchObject({ status: 'succeeded', error: null, response_status: 200 });
  });
});
