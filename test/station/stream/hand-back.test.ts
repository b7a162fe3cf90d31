/**
 * A follower that played alone hands back to the leader once, not on every late message: two LiveStreams on
 * an in-process bus that delivers each of the leader's messages only a fixed lead before its first frame is
 * due (a leader whose publisher reconnects after Redis returns, an offline queue, a loaded machine). Each
 * switch restarts the follower's broadcaster, so a flip per message is a click per message for its listeners.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../../src/infra/pubsub/in-process-bus.js';
import type { EventBus, MessageHandler } from '../../../src/infra/pubsub/event-bus.js';
import { StreamBroadcaster } from '../../../src/station/stream/broadcaster.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { LiveStream, type RelayMessage } from '../../../src/station/stream/live-stream.js';
import { pollUntil } from '../../helpers/poll.js';
import { toneMaster } from '../playout-support.js';
import { ListSource, type TestTrack } from './helpers.js';

/** Delivers each relay message `leadMs` before its first frame is due (at once if that time has passed). */
class LateBus implements EventBus {
  leadMs: number;
  private readonly inner = new InProcessEventBus();
  private readonly timers = new Set<NodeJS.Timeout>();
  constructor(leadMs: number) {
    this.leadMs = leadMs;
  }
  async publish(channel: string, message: unknown): Promise<void> {
    const m = message as RelayMessage;
    const wait = m.epoch + m.first * FRAME_MS - this.leadMs - Date.now();
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.inner.publish(channel, message).catch(() => {});
      },
      Math.max(0, wait),
    );
    this.timers.add(timer);
  }
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    return this.inner.subscribe(channel, handler);
  }
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.inner.close();
  }
}

const streams: LiveStream[] = [];
const buses: LateBus[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) await stream.stop();
  for (const bus of buses.splice(0)) await bus.close();
});

describe('a follower playing alone while the leader is late', () => {
  it('goes alone once while the frames come under its threshold, and hands back once when they lead again', async () => {
    const tracks: TestTrack[] = await Promise.all(
      [330, 550, 440].map(async (frequencyHz, i) => ({
        id: `t${i}`,
        title: `Tone ${i}`,
        file: await toneMaster({ frequencyHz, amplitude: 0.2, seconds: 30 }),
      })),
    );
    // The leader's frames reach the follower 1.5 s before they are due: under the 2 s at which it goes alone.
    const bus = new LateBus(1500);
    buses.push(bus);
    const make = (leading: boolean) => {
      const broadcaster = new StreamBroadcaster(new ListSource(tracks, true), { leadMs: 1000, crossfadeSec: 1, relayAheadMs: 4000 });
      const stream = new LiveStream({
        broadcaster,
        bus,
        leader: { isLeader: () => leading },
        relay: true,
        channel: 'frames',
        checkMs: 50,
        alone: () => new ListSource(tracks, true),
      });
      streams.push(stream);
      return stream;
    };
    const leader = make(true);
    const follower = make(false);
    await leader.start();
    await follower.start();
    await pollUntil(
      'the follower plays alone',
      () => follower.wentAlone,
      (n) => n > 0,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(follower.wentAlone).toBe(1);
    expect(follower.handedBack).toBe(0);

    // The leader's frames come 3.5 s ahead again: the follower hands back once and stays with them.
    bus.leadMs = 3500;
    await pollUntil(
      'the follower relays again',
      () => follower.handedBack,
      (n) => n > 0,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(follower.handedBack).toBe(1);
    expect(follower.wentAlone).toBe(1);
  }, 40_000);
});
