/**
 * Station events (the spec's webhook events) and progress ticks, published on the event bus so that
 * every instance's WebSocket clients and the webhook dispatcher see them, whichever instance emitted.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { recordInTransaction, recordThenPublish, type AfterCommit, type MessageOutbox } from '../../infra/pubsub/recorded-publish.js';

export const STATION_EVENTS_CHANNEL = 'station.events';
export const GENERATION_PROGRESS_CHANNEL = 'station.generation_progress';
export const TRAINING_PROGRESS_CHANNEL = 'station.training_progress';
export { NOW_PLAYING_CHANNEL, LISTENER_COUNTS_CHANNEL, RADIO_CONTROL_CHANNEL } from './now-playing.js';

export type StationEventName =
  | 'station.radio.enabled'
  | 'station.radio.disabled'
  | 'station.track.now_playing'
  | 'station.track.generation_complete'
  | 'station.track.generation_failed'
  | 'station.training.job_completed'
  | 'station.training.job_failed'
  | 'station.safety.flag_raised';

export interface StationEvent {
  event: StationEventName;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface GenerationProgress {
  event: 'generation_progress';
  generation_id: string;
  progress_pct: number;
  eta_seconds: number;
}

/** The narrow port a module raising station events from a database change is given (see StationEvents.recordIn). */
export interface TransactionalStationEvents {
  recordIn(tx: DbOrTx, event: StationEventName, data: Record<string, unknown>): Promise<AfterCommit>;
}

export class StationEvents implements TransactionalStationEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** The webhooks' outbox: an event recorded there is delivered even if the bus loses it (absent: bus only). */
    private readonly outbox?: MessageOutbox,
  ) {}

  /**
   * An event from no database transaction (the playout's now-playing, whose play is recorded apart from it):
   * recorded in the outbox on its own, then published; resolves once recorded (without an outbox: published).
   */
  emit(event: StationEventName, data: Record<string, unknown>): Promise<void> {
    const message: StationEvent = { event, timestamp: this.clock.date().toISOString(), data };
    if (this.outbox) return recordThenPublish(this.bus, this.outbox, STATION_EVENTS_CHANNEL, message);
    return this.bus.publish(STATION_EVENTS_CHANNEL, message);
  }

  /**
   * An event raised by a database change: recorded in `tx`, the change's transaction, so that both commit
   * together; answers what to run once `tx` has committed (the bus publish and the delivery jobs, wake-ups
   * that never reject). Without an outbox nothing is recorded and the publish after the commit is its only way.
   */
  async recordIn(tx: DbOrTx, event: StationEventName, data: Record<string, unknown>): Promise<AfterCommit> {
    const message: StationEvent = { event, timestamp: this.clock.date().toISOString(), data };
    if (this.outbox) return recordInTransaction(this.bus, this.outbox, tx, STATION_EVENTS_CHANNEL, message);
    return () => this.bus.publish(STATION_EVENTS_CHANNEL, message);
  }

  generationProgress(generationId: string, progressPct: number, etaSeconds: number): Promise<void> {
    const message: GenerationProgress = {
      event: 'generation_progress',
      generation_id: generationId,
      progress_pct: Math.max(0, Math.min(100, Math.round(progressPct))),
      eta_seconds: Math.max(0, Math.round(etaSeconds)),
    };
    return this.bus.publish(GENERATION_PROGRESS_CHANNEL, message);
  }
}
