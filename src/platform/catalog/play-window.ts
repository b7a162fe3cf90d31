/**
 * One counted play per listener and track within a window: the track's length, at least 30 s. A listener
 * who asks for the same stream again and again while it would still be playing counts once; one who plays
 * it to the end and again counts twice. The window is fixed from the first counted play (a repeat inside it
 * does not extend it), timed by the injected clock, and shared by every instance (the CounterStore is Redis
 * with REDIS_URL).
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { CounterStore } from '../../infra/counters/counter-store.js';

export const MIN_PLAY_WINDOW_SEC = 30;

export class PlayWindow {
  constructor(
    private readonly counters: Pick<CounterStore, 'claim'>,
    private readonly clock: Clock,
  ) {}

  /** True when this play counts: `listener` has no counted play of `trackId` in the window yet. */
  counts(listener: string, trackId: string, durationSec: number | null): Promise<boolean> {
    const windowSec = Math.max(MIN_PLAY_WINDOW_SEC, Math.ceil(durationSec ?? 0));
    return this.counters.claim(`play:${trackId}:${listener}`, this.clock.now(), windowSec * 1000);
  }
}
