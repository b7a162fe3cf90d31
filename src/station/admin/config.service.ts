/**
 * Module A: the station configuration and the radio's on/off switch. Every change is announced on
 * RADIO_CONTROL_CHANNEL so the scheduler leader acts on it at its next cycle (or at once).
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { DomainError, Errors } from '../../errors.js';
import type { TransactionalStationEvents } from '../events/station-events.js';
import { RADIO_CONTROL_CHANNEL } from '../events/now-playing.js';
import type { ConfigRepository, StationConfigPatch, StationConfigRow } from './config.repository.js';
import { FALLBACK_MODES, GENERATION_MODES, RATIO_SUM_TOLERANCE, REPORT_THRESHOLD_MAX, STREAM_QUALITIES } from './schemas.js';

type GenerationMode = (typeof GENERATION_MODES)[number];
type FallbackMode = (typeof FALLBACK_MODES)[number];
type StreamQuality = (typeof STREAM_QUALITIES)[number];

export interface StationConfigView {
  radio_enabled: boolean;
  generation_mode: GenerationMode;
  catalog_ratio: number;
  ai_generation_ratio: number;
  lyrics_generation: boolean;
  explicit_allowed: boolean;
  max_track_length_sec: number;
  generation_lead_time: number;
  fallback_mode: FallbackMode;
  stream_quality: StreamQuality;
  crossfade_sec: number;
  report_threshold: number;
}

export type StationConfigChange = Partial<StationConfigView>;

/** Messages on RADIO_CONTROL_CHANNEL (the scheduler subscribes). */
export type RadioControlMessage = { type: 'enable' } | { type: 'disable'; reason: string } | { type: 'config_changed'; fields: string[] };

export const invalidConfig = (detail: string) => new DomainError('invalid', 'INVALID_CONFIG', 'The configuration is not valid', detail);

export function configView(row: StationConfigRow): StationConfigView {
  return {
    radio_enabled: row.radioEnabled,
    generation_mode: row.generationMode,
    catalog_ratio: row.catalogRatio,
    ai_generation_ratio: row.aiGenerationRatio,
    lyrics_generation: row.lyricsGeneration,
    explicit_allowed: row.explicitAllowed,
    max_track_length_sec: row.maxTrackLengthSec,
    generation_lead_time: row.generationLeadTime,
    // The column shares the generation_mode enum; the API never stores ai_only there.
    fallback_mode: row.fallbackMode as FallbackMode,
    stream_quality: row.streamQuality,
    crossfade_sec: row.crossfadeSec,
    report_threshold: row.reportThreshold,
  };
}

/**
 * The rules a whole configuration must satisfy (the schema checks each field alone). Returns the
 * violations, empty when the configuration is valid.
 */
export function configViolations(config: StationConfigView): string[] {
  const problems: string[] = [];
  const { catalog_ratio: catalog, ai_generation_ratio: ai } = config;
  for (const [name, value] of [
    ['catalog_ratio', catalog],
    ['ai_generation_ratio', ai],
  ] as const) {
    if (!Number.isFinite(value) || value < 0 || value > 1) problems.push(`${name} must be between 0.0 and 1.0 (got ${value})`);
  }
  if (Math.abs(catalog + ai - 1) > RATIO_SUM_TOLERANCE) {
    problems.push(`catalog_ratio + ai_generation_ratio must equal 1.0 (got ${catalog} + ${ai} = ${catalog + ai})`);
  }
  if (!GENERATION_MODES.includes(config.generation_mode)) problems.push(`generation_mode must be one of ${GENERATION_MODES.join(', ')}`);
  if (!FALLBACK_MODES.includes(config.fallback_mode)) problems.push(`fallback_mode must be one of ${FALLBACK_MODES.join(', ')}`);
  if (!STREAM_QUALITIES.includes(config.stream_quality)) problems.push(`stream_quality must be one of ${STREAM_QUALITIES.join(', ')}`);
  if (config.generation_mode === 'catalog_only' && ai !== 0) problems.push('generation_mode catalog_only requires ai_generation_ratio 0 (and catalog_ratio 1)');
  if (config.generation_mode === 'ai_only' && catalog !== 0) problems.push('generation_mode ai_only requires catalog_ratio 0 (and ai_generation_ratio 1)');
  if (!Number.isInteger(config.max_track_length_sec) || config.max_track_length_sec < 10 || config.max_track_length_sec > 900) {
    problems.push('max_track_length_sec must be an integer from 10 to 900');
  }
  if (!Number.isInteger(config.generation_lead_time) || config.generation_lead_time < 10 || config.generation_lead_time > 3600) {
    problems.push('generation_lead_time must be an integer from 10 to 3600');
  }
  if (!Number.isInteger(config.crossfade_sec) || config.crossfade_sec < 0 || config.crossfade_sec > 10) {
    problems.push('crossfade_sec must be an integer from 0 to 10');
  }
  if (!Number.isInteger(config.report_threshold) || config.report_threshold < 1 || config.report_threshold > REPORT_THRESHOLD_MAX) {
    problems.push(`report_threshold must be an integer from 1 to ${REPORT_THRESHOLD_MAX}`);
  }
  return problems;
}

function toPatch(change: StationConfigChange): StationConfigPatch {
  const patch: StationConfigPatch = {};
  if (change.generation_mode !== undefined) patch.generationMode = change.generation_mode;
  if (change.catalog_ratio !== undefined) patch.catalogRatio = change.catalog_ratio;
  if (change.ai_generation_ratio !== undefined) patch.aiGenerationRatio = change.ai_generation_ratio;
  if (change.lyrics_generation !== undefined) patch.lyricsGeneration = change.lyrics_generation;
  if (change.explicit_allowed !== undefined) patch.explicitAllowed = change.explicit_allowed;
  if (change.max_track_length_sec !== undefined) patch.maxTrackLengthSec = change.max_track_length_sec;
  if (change.generation_lead_time !== undefined) patch.generationLeadTime = change.generation_lead_time;
  if (change.fallback_mode !== undefined) patch.fallbackMode = change.fallback_mode;
  if (change.stream_quality !== undefined) patch.streamQuality = change.stream_quality;
  if (change.crossfade_sec !== undefined) patch.crossfadeSec = change.crossfade_sec;
  if (change.report_threshold !== undefined) patch.reportThreshold = change.report_threshold;
  return patch;
}

export interface RadioSwitchResult {
  radio_enabled: boolean;
  changed_at: string;
  changed_by: string | null;
  reason: string | null;
  effective: 'next_scheduler_cycle' | 'after_current_track';
}

export class StationConfigService {
  constructor(
    private readonly repo: ConfigRepository,
    private readonly events: TransactionalStationEvents,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** Module G applies a changed report_threshold to the tracks already in its review queue. */
    private readonly reportThresholdChanged: (threshold: number) => Promise<unknown>,
  ) {}

  async get(): Promise<StationConfigView> {
    return configView(await this.repo.get());
  }

  /** A partial update: the merged configuration must be valid as a whole, else nothing changes. */
  async update(change: StationConfigChange): Promise<StationConfigView> {
    let changedFields: string[] = [];
    const { after } = await this.repo.updateLocked((current) => {
      const before = configView(current);
      if (change.radio_enabled !== undefined && change.radio_enabled !== before.radio_enabled) {
        throw invalidConfig('radio_enabled cannot be changed here: use POST /station/v1/admin/radio/enable or /station/v1/admin/radio/disable');
      }
      const merged: StationConfigView = { ...before, ...change, radio_enabled: before.radio_enabled };
      const problems = configViolations(merged);
      if (problems.length > 0) throw invalidConfig(problems.join('; '));
      changedFields = (Object.keys(change) as (keyof StationConfigView)[]).filter((key) => merged[key] !== before[key]);
      return changedFields.length > 0 ? toPatch(change) : {};
    });
    if (changedFields.length > 0) await this.control({ type: 'config_changed', fields: changedFields });
    if (changedFields.includes('report_threshold')) await this.reportThresholdChanged(after.reportThreshold);
    return configView(after);
  }

  /** Disabled -> enabled; 409 STATION_RADIO_ALREADY_ENABLED when it is on. */
  async enable(by: string | null): Promise<RadioSwitchResult> {
    const at = this.clock.date();
    // The event is recorded in the webhooks' outbox in the switch's transaction.
    const switched = await this.repo.switchRadio(true, { at, by, reason: null }, (tx) =>
      this.events.recordIn(tx, 'station.radio.enabled', { enabled_by: by, at: at.toISOString() }),
    );
    if (!switched) throw new DomainError('conflict', 'RADIO_ALREADY_ENABLED', 'The radio is already enabled');
    await switched.raised();
    await this.control({ type: 'enable' });
    return { radio_enabled: true, changed_at: at.toISOString(), changed_by: by, reason: null, effective: 'next_scheduler_cycle' };
  }

  /** Enabled -> disabled: the scheduler lets the current track complete, then stops. 409 when already off. */
  async disable(reason: string, by: string | null): Promise<RadioSwitchResult> {
    const trimmed = reason.trim();
    if (trimmed === '') throw Errors.validation('reason must not be blank');
    const at = this.clock.date();
    const switched = await this.repo.switchRadio(false, { at, by, reason: trimmed }, (tx) =>
      this.events.recordIn(tx, 'station.radio.disabled', { reason: trimmed, disabled_by: by, at: at.toISOString() }),
    );
    if (!switched) throw Errors.conflict('The radio is already disabled', 'enable it with POST /station/v1/admin/radio/enable');
    await switched.raised();
    await this.control({ type: 'disable', reason: trimmed });
    return { radio_enabled: false, changed_at: at.toISOString(), changed_by: by, reason: trimmed, effective: 'after_current_track' };
  }

  private control(message: RadioControlMessage): Promise<void> {
    return this.bus.publish(RADIO_CONTROL_CHANNEL, message);
  }
}
