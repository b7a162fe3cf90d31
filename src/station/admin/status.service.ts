/** Module A: GET /admin/status, the station at a glance. */
import type { Clock } from '../../infra/clock/clock.js';
import type { Engine } from '../../engine/engine.js';
import type { ModelStore } from '../models/model-store.js';
import type { RadioStatus } from '../events/now-playing.js';
import type { ConfigRepository } from './config.repository.js';
import type { TrainingStatus, TrainingStatusSource } from './status-ports.js';

const SAFETY_WINDOW_MS = 24 * 3600 * 1000;

export interface StationStatus {
  radio_enabled: boolean;
  uptime_seconds: number;
  listener_count: number;
  current_track: Awaited<ReturnType<RadioStatus['currentTrack']>>;
  queue_depth: number;
  training_status: TrainingStatus;
  model_version: string | null;
  lyrics_model_version: string | null;
  safety_status: 'ok' | 'flags_pending';
  safety_flags_24h: number;
  ml_service_health: 'ok' | 'degraded' | 'down';
  generation_queue_depth: number;
  generation_mode: 'catalog_only' | 'ai_only' | 'hybrid';
  fallback_active: boolean;
  radio_changed_at: string | null;
  disabled_reason: string | null;
}

export interface StatusDeps {
  config: ConfigRepository;
  /** Module E's read port: generations pending or in progress. */
  generationQueueDepth: () => Promise<number>;
  /** Module G's read port: safety flags raised since a moment (each withheld a track or lyric from playback). */
  safetyFlagsSince: (since: Date) => Promise<number>;
  models: Pick<ModelStore, 'production'>;
  engine: Pick<Engine, 'health'>;
  clock: Clock;
  /** When this station process started (ms since the epoch): uptime counts from here. */
  startedAt: number;
  /** The scheduler's view of the radio. */
  radio: RadioStatus;
  /** Module C's training jobs, summed up. */
  training: TrainingStatusSource;
}

export class StationStatusService {
  constructor(private readonly deps: StatusDeps) {}

  async status(): Promise<StationStatus> {
    const { config, models, engine, clock, startedAt, radio, training: trainingStatus } = this.deps;
    const [row, currentTrack, queueDepth, listeners, fallback, training, audioModel, lyricsModel, flags, health, generationQueue] = await Promise.all([
      config.get(),
      radio.currentTrack(),
      radio.queueDepth(),
      radio.listenerCount(),
      radio.fallbackActive(),
      trainingStatus.status(),
      models.production('audio'),
      models.production('lyrics'),
      this.deps.safetyFlagsSince(new Date(clock.now() - SAFETY_WINDOW_MS)),
      engine
        .health()
        .then((h) => h.status)
        .catch(() => 'down' as const),
      this.deps.generationQueueDepth(),
    ]);
    return {
      radio_enabled: row.radioEnabled,
      uptime_seconds: Math.max(0, Math.floor((clock.now() - startedAt) / 1000)),
      listener_count: listeners,
      current_track: currentTrack,
      queue_depth: queueDepth,
      training_status: training,
      model_version: audioModel?.version ?? null,
      lyrics_model_version: lyricsModel?.version ?? null,
      safety_status: flags > 0 ? 'flags_pending' : 'ok',
      safety_flags_24h: flags,
      ml_service_health: health,
      generation_queue_depth: generationQueue,
      generation_mode: row.generationMode,
      fallback_active: fallback,
      radio_changed_at: row.radioChangedAt ? row.radioChangedAt.toISOString() : null,
      disabled_reason: row.radioEnabled ? null : row.disabledReason,
    };
  }
}
