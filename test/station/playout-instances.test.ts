/**
 * Two instances on one Redis (the services suite): the scheduler leader renders and encodes the timeline,
 * the follower renders nothing and serves the leader's frames, so the listeners of both hear the same bytes
 * at the same stream positions. When the leader goes away the follower takes over, and its listeners stay
 * connected. Real clock and real Redis; every wait polls for a state, nothing asserts a duration.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import { PrefixedEventBus } from '../../src/infra/pubsub/prefixed-bus.js';
import { RedisEventBus } from '../../src/infra/pubsub/redis-bus.js';
import { STREAM_RELAY_CHANNEL } from '../../src/station/events/now-playing.js';
import { StreamBroadcaster } from '../../src/station/stream/broadcaster.js';
import { LiveStream } from '../../src/station/stream/live-stream.js';
import { RedisLeader } from '../../src/station/scheduler/leader.js';
import { pollUntil } from '../helpers/poll.js';
import { ListSource, MemorySink, type TestTrack } from './stream/helpers.js';
import { toneMaster } from './playout-support.js';

const REDIS_URL = process.env.REDIS_URL;

interface Instance {
  source: ListSource;
  broadcaster: StreamBroadcaster;
  stream: LiveStream;
  leader: RedisLeader;
  bus: PrefixedEventBus;
  listener: MemorySink;
}

/** The frames of `inner` (a later, shorter capture) found in `outer`: the matching run, frame by frame. */
function matchingRun(outer: Buffer, inner: Buffer): { matched: number; of: number } {
  const frame = (bytes: Buffer) => parseMp3(bytes).frames.map((f) => bytes.subarray(f.offset, f.offset + f.length));
  const a = frame(outer);
  const b = frame(inner).slice(1); // a listener's first frame may be cut by where its lead began: skip it
  const start = a.findIndex((candidate) => candidate.equals(b[0]));
  if (start < 0) return { matched: 0, of: b.length };
  let matched = 0;
  while (matched < b.length && start + matched < a.length && a[start + matched].equals(b[matched])) matched++;
  return { matched, of: Math.min(b.length, a.length - start) };
}

describe.skipIf(!REDIS_URL)('the live stream on two instances (Redis)', () => {
  const prefix = `test-${randomBytes(5).toString('hex')}`;
  let tracks: TestTrack[];
  const instances: Instance[] = [];

  async function instance(): Promise<Instance> {
    const bus = new PrefixedEventBus(new RedisEventBus({ url: REDIS_URL! }), prefix);
    const leader = new RedisLeader(REDIS_URL!, `${prefix}:scheduler-leader`, { ttlMs: 1500, renewMs: 200 });
    await leader.start();
    const source = new ListSource(tracks, true);
    const broadcaster = new StreamBroadcaster(source, { leadMs: 1000, crossfadeSec: 1 });
    const stream = new LiveStream({ broadcaster, bus, leader, relay: true, channel: STREAM_RELAY_CHANNEL, checkMs: 100 });
    await stream.start();
    const listener = new MemorySink();
    const made = { source, broadcaster, stream, leader, bus, listener };
    instances.push(made);
    return made;
  }

  beforeAll(async () => {
    tracks = await Promise.all(
      [330, 440, 550].map(async (frequencyHz, i) => ({ id: `t${i}`, title: `Tone ${i}`, file: await toneMaster({ frequencyHz, amplitude: 0.2, seconds: 3 }) })),
    );
  });
  afterAll(async () => {
    for (const { stream, leader, bus } of instances) {
      await stream.stop();
      await leader.stop();
      await bus.close();
    }
  });

  it('serves the leader timeline from the follower, byte for byte, and the follower takes over when the leader goes', async () => {
    const first = await instance();
    expect(first.leader.isLeader()).toBe(true);
    const second = await instance();
    expect(second.leader.isLeader()).toBe(false);
    await pollUntil(
      'the follower relays',
      () => second.stream.relayedFrames,
      (n) => n > 0,
    );
    first.broadcaster.addListener(first.listener);
    second.broadcaster.addListener(second.listener);
    await pollUntil(
      'both listeners hold 4 s of audio',
      () => Math.min(first.listener.bytes().length, second.listener.bytes().length),
      (n) => n > 4 * 16_000,
    );

    // The follower rendered nothing of its own: it never asked its source for a track.
    expect(second.source.calls).toBe(0);
    expect(second.broadcaster.running).toBe(false);
    // Its listener got the leader's frames, the same bytes at the same stream positions.
    const run = matchingRun(first.listener.bytes(), second.listener.bytes());
    expect(run.of).toBeGreaterThan(100); // 2.6 s of frames compared
    expect(run.matched).toBe(run.of);

    // The leader goes: the follower takes the lead and goes on streaming to the same listener.
    await first.stream.stop();
    await first.leader.stop();
    await pollUntil(
      'the follower leads',
      () => second.leader.isLeader(),
      (leads) => leads,
      10_000,
    );
    await pollUntil(
      'the new leader renders the timeline',
      () => second.source.calls,
      (calls) => calls > 0,
      10_000,
    );
    const before = second.listener.bytes().length;
    expect(second.listener.ended).toBe(false);
    await pollUntil(
      'its listener keeps receiving',
      () => second.listener.bytes().length,
      (n) => n > before + 2 * 16_000,
      10_000,
    );
    await pollUntil(
      'a track is heard',
      () => second.broadcaster.position().trackId,
      (id) => id !== null,
      10_000,
    );
    expect(parseMp3(second.listener.bytes()).skipped.garbageBytes).toBe(0);
  }, 40_000);
});
