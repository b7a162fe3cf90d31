/**
 * The webhooks' outbox: an event's delivery rows are recorded in the database before the bus or the queue hear
 * of it, so an event survives both being down; the relays (every instance's sweep, re-queuing pending attempts
 * left without a job) then send each attempt once, however many of them run, because a worker must claim an
 * attempt before it sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_QUEUE, WebhookDeliveryWorker } from '../../src/platform/webhooks/delivery.js';
import { WebhookDispatcher } from '../../src/platform/webhooks/dispatcher.js';
import { PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { WebhookRepository } from '../../src/platform/webhooks/repository.js';
import { DEFAULT_RETRY_POLICY } from '../../src/platform/webhooks/retry-policy.js';
import { SecretBox } from '../../src/platform/webhooks/secret-box.js';
import { EgressPolicy } from '../../src/infra/egress/egress-policy.js';
import { parseAllowList } from '../../src/infra/egress/allow-list.js';
import { InProcessEventBus } from '../../src/infra/pubsub/in-process-bus.js';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue.js';
import { loadOrCreateSecret } from '../../src/infra/secrets.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { UserDirectory } from '../../src/auth/user-directory.js';
import { pollUntil } from '../helpers/poll.js';
import { attemptsOf, developer, gate, nonce, registerWebhook, settledAttempts, startReceiver, type Caller, type Receiver } from './support.js';

let station: TestStation;
let dev: Caller;
let repo: WebhookRepository;
let box: SecretBox;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // The receivers listen on 127.0.0.1, which the default egress policy (external) refuses.
  station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' }, { fakeEngine: true });
  dev = await developer(station);
  repo = new WebhookRepository(station.database.db, new UserDirectory(station.database.db));
  box = new SecretBox(loadOrCreateSecret(station.config.dataDir, 'webhook-secrets', null));
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await station?.destroy();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  closers.push(() => r.close());
  return r;
}

/** A queue that cannot take jobs, as BullMQ's when Redis is gone for good (adds are refused). */
async function unavailableQueue(): Promise<InProcessJobQueue> {
  const queue = new InProcessJobQueue();
  await queue.close();
  return queue;
}

/** One instance's relay: its own queue, worker and sweep, on the shared database; counts the jobs it ran. */
async function relay() {
  const queue = new InProcessJobQueue();
  closers.push(() => queue.close());
  const worker = new WebhookDeliveryWorker(repo, box, queue, station.clock, {
    egress: new EgressPolicy(parseAllowList('loopback')),
    timeoutMs: 10_000,
    retry: DEFAULT_RETRY_POLICY,
  });
  const ran = { count: 0 };
  await queue.process(WEBHOOK_QUEUE, async (job) => {
    await worker.deliver(String(job.data.deliveryId));
    ran.count++;
  });
  const dispatcher = new WebhookDispatcher(repo, box, queue, station.clock, { sweepIntervalMs: 0, onError: () => undefined });
  return { dispatcher, ran };
}

describe('an event recorded while the queue is down', () => {
  it('is kept pending, and two relays racing over it deliver it once', async () => {
    const answer = gate();
    const r = await receiver(() => ({ status: 200, until: answer.opened }));
    const hook = await registerWebhook(station, dev, r.url, ['artist.verified']);
    const marker = nonce();
    const message = { event: 'artist.verified', data: { artist_id: 'a-1', verified_by: 'admin', marker }, timestamp: new Date().toISOString() };

    const errors: string[] = [];
    const emitter = new WebhookDispatcher(repo, box, await unavailableQueue(), station.clock, {
      sweepIntervalMs: 0,
      onError: (what) => errors.push(what),
    });
    await emitter.record(message);
    // Recorded, its job refused: the attempt waits in the database for a relay.
    await pollUntil(
      'the refused job reported',
      () => errors.length,
      (n) => n === 1,
      5_000,
    );
    expect(errors[0]).toMatch(/not queued/);
    const [pending] = await attemptsOf(station, dev, hook.id);
    expect([pending.attempt, pending.status]).toEqual([1, 'pending']);
    expect(r.matching(marker)).toHaveLength(0);

    // Two instances' relays find it at once and both queue it; their workers race for the claim.
    const relays = [await relay(), await relay()];
    const queued = await Promise.all(relays.map((x) => x.dispatcher.requeuePending()));
    expect(queued).toEqual([1, 1]);
    await r.waitFor(marker, 1);
    // The loser of the claim has returned without sending; the winner holds its request until the gate opens.
    await pollUntil(
      'one relay to run its job',
      () => relays.filter((x) => x.ran.count === 1).length,
      (n) => n === 1,
      5_000,
    );
    answer.open();
    await pollUntil(
      'both relays to run their jobs',
      () => relays.map((x) => x.ran.count),
      (counts) => counts.every((n) => n === 1),
      5_000,
    );

    expect(r.matching(marker)).toHaveLength(1);
    const attempts = await settledAttempts(station, dev, hook.id, pending.webhook_message_id, 1);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 'succeeded']]);
    // Settled: a relay running again finds nothing to send.
    expect(await Promise.all(relays.map((x) => x.dispatcher.requeuePending()))).toEqual([0, 0]);
  });
});

describe('an event whose bus publish fails', () => {
  it('is delivered from the outbox, and emit does not fail', async () => {
    const r = await receiver();
    const hook = await registerWebhook(station, dev, r.url, ['track.published']);
    const deadBus = new InProcessEventBus();
    await deadBus.close();
    const outbox = new WebhookDispatcher(repo, box, station.queue, station.clock, { sweepIntervalMs: 0, onError: () => undefined });
    const marker = nonce();
    await new PlatformEvents(deadBus, station.clock, outbox).emit('track.published', { track_id: 't-1', artist_id: 'a-1', title: 'Tide', marker });
    const [request] = await r.waitFor(marker, 1);
    const attempts = await settledAttempts(station, dev, hook.id, request.headers['x-webhook-id'] as string, 1);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 'succeeded']]);
  });

  it('without an outbox, fails with the bus (as before)', async () => {
    const deadBus = new InProcessEventBus();
    await deadBus.close();
    await expect(new PlatformEvents(deadBus, station.clock).emit('track.published', { track_id: 't-2' })).rejects.toThrow(/closed/);
  });
});
