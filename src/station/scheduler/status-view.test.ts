/**
 * The status read model with in-memory ports: which now-playing card an instance shows. Issue 20: after a
 * Redis outage the lead moved to the other instance, and the one that led before kept showing the last
 * track it had put on air itself instead of the newer cards the new leader published.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../infra/pubsub/in-process-bus.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import { NOW_PLAYING_CHANNEL, type NowPlayingCard } from '../events/now-playing.js';
import type { CardWithoutTiming } from './cards.js';
import { OnAirTrack } from './on-air.js';
import type { SlotRow } from './slots.repository.js';
import { RadioStatusView } from './status-view.js';

const T0 = Date.parse('2026-11-27T22:00:00Z');

function card(title: string): CardWithoutTiming {
  return {
    station_track_id: `00000000-0000-4000-8000-00000000000${title.length}`,
    title,
    artist: 'Tones',
    is_ai_generated: false,
    track_origin: 'catalog',
    genre: 'ambient',
    mood: [],
    duration_sec: 8,
    cover_art_url: null,
    waveform_url: null,
  };
}

describe('radio status view: the card on air', () => {
  const bus = new InProcessEventBus();
  let now = T0;
  const clock = { now: () => now };
  // The view reads only radioEnabled of the config and durationSec of a slot; the rows have many more columns.
  const config = { get: async () => ({ radioEnabled: true }) as unknown as StationConfigRow };
  const slot = { id: 7, durationSec: 8 } as unknown as SlotRow;
  let view: RadioStatusView;
  let onAir: OnAirTrack;

  const build = async () => {
    onAir = new OnAirTrack(clock);
    view = new RadioStatusView({
      config,
      slots: { planned: async () => [] },
      bus,
      clock,
      onAir,
      planner: { fallbackActive: () => false },
      listeners: async () => 0,
    });
    await view.start();
  };
  const publish = async (full: NowPlayingCard) => {
    await bus.publish(NOW_PLAYING_CHANNEL, full);
    await new Promise((resolve) => setImmediate(resolve)); // the bus delivers on a later tick
  };
  afterEach(() => view.stop());

  it('on the leader, shows the track it put on air', async () => {
    await build();
    onAir.put({ slot, card: card('Tone 1'), startedAtMs: T0 });
    now = T0 + 3_000;
    expect(await view.nowPlaying()).toMatchObject({ title: 'Tone 1', elapsed_sec: 3, started_at: new Date(T0).toISOString() });
  });

  it('once another instance leads, shows the newer card it publishes rather than its own last track', async () => {
    await build();
    onAir.put({ slot, card: card('Tone 1'), startedAtMs: T0 });
    await publish({ ...card('Tone 1'), elapsed_sec: 0, started_at: new Date(T0).toISOString() });
    // The lead moved; the new leader put Tone 22 on air 20 s later.
    await publish({ ...card('Tone 22'), elapsed_sec: 0, started_at: new Date(T0 + 20_000).toISOString() });
    now = T0 + 22_000;
    expect(await view.nowPlaying()).toMatchObject({ title: 'Tone 22', elapsed_sec: 2, started_at: new Date(T0 + 20_000).toISOString() });
  });

  it('keeps its own card when the bus brought nothing newer (the bus was down)', async () => {
    await build();
    await publish({ ...card('Tone 1'), elapsed_sec: 0, started_at: new Date(T0).toISOString() });
    onAir.put({ slot, card: card('Tone 22'), startedAtMs: T0 + 20_000 });
    now = T0 + 21_000;
    expect(await view.nowPlaying()).toMatchObject({ title: 'Tone 22', elapsed_sec: 1 });
  });

  it('on a follower that never led, shows the cards the leader publishes', async () => {
    await build();
    await publish({ ...card('Tone 333'), elapsed_sec: 0, started_at: new Date(T0).toISOString() });
    now = T0 + 5_000;
    expect(await view.nowPlaying()).toMatchObject({ title: 'Tone 333', elapsed_sec: 5 });
  });
});
