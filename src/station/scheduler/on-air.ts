/**
 * The track this instance put on air as leader: written by the track source when listeners hear a track (or
 * when it takes over one), read by the status view (the card) and the planner (when the next slots play).
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { CardWithoutTiming } from './cards.js';
import type { SlotRow } from './slots.repository.js';

export interface OnAir {
  slot: SlotRow;
  card: CardWithoutTiming;
  /** When listeners heard its first sound. */
  startedAtMs: number;
}

export class OnAirTrack {
  private current: OnAir | null = null;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  put(onAir: OnAir): void {
    this.current = onAir;
  }

  get(): OnAir | null {
    return this.current;
  }

  /** Seconds left of it (0 when none). */
  remainingSec(): number {
    if (!this.current) return 0;
    const elapsed = (this.clock.now() - this.current.startedAtMs) / 1000;
    return Math.max(0, (this.current.slot.durationSec ?? 0) - elapsed);
  }
}
