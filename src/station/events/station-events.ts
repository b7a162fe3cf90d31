/**
 * Station events (the spec's webhook events) and progress ticks, published on the event bus so that
 * every instance's WebSocket clients and the webhook dispatcher see them, whichever instance emitted.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { recordThenPublish, type MessageOutbox } from '../../infra/pubsub/recorded-publish.js';

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

export class StationEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** The webhooks' outbox: an event recorded there is delivered even if the bus loses it (absent: bus only). */
    private readonly outbox?: MessageOutbox,
  ) {}

  /** Resolves once the event is recorded in the outbox (without one: once published). */
  emit(event: StationEventName, data: Record<string, unknown>): Promise<void> {
    const message: StationEvent = { event, timestamp: this.clock.date().toISOString(), data };
    if (this.outbox) return recordThenPublish(this.bus, this.outbox, STATION_EVENTS_CHANNEL, message);
    return this.bus.publish(STATION_EVENTS_CHANNEL, message);
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
