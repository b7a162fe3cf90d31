/**
 * Module D's core: the live context every generation follows. Each change (operator override, preset
 * activation, automatic rotation) inserts a new context, so the history keeps every context that was
 * active and the generations made under it; the current context is the newest.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import type { KeyPreference, Lifestyle, MusicContext } from '../../engine/types.js';
import type { ContextRepository, ContextRow, PresetRow } from './context.repository.js';

export const TIMES_OF_DAY = ['night', 'morning', 'afternoon', 'evening'] as const;
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];
export const TEMPO_MIN_BPM = 40;
export const TEMPO_MAX_BPM = 220;
/** GET /context/history covers this window. */
export const HISTORY_DAYS = 30;

/** Server time (UTC) to part of day: night 0-6, morning 6-12, afternoon 12-18, evening 18-24. */
export function timeOfDayAt(date: Date): TimeOfDay {
  const hour = date.getUTCHours();
  if (hour < 6) return 'night';
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** The generations made under a context during one radio session (null: outside any session). */
export interface SessionUse {
  contextId: string;
  sessionId: string | null;
  generations: number;
  firstAt: Date;
  lastAt: Date;
}

/**
 * Module E's read port (src/station/generation/module.ts, contextSessions): the generations made under each
 * of these contexts, grouped by radio session, oldest first. Module D reads no generation itself.
 */
export type ContextSessions = (contextIds: string[]) => Promise<SessionUse[]>;

export type ContextSource = 'initial' | 'override' | 'preset' | 'rotation';

export interface ContextView extends MusicContext {
  context_id: string;
  time_of_day: TimeOfDay;
  active_since: string;
  auto_rotate: boolean;
  next_rotation: string | null;
}

export type ContextOverride = Partial<MusicContext>;

/** PATCH /context/current: any subset of the context's fields, time_of_day and auto_rotate included. */
export interface ContextChange extends ContextOverride {
  time_of_day?: TimeOfDay;
  auto_rotate?: boolean;
}

/** What a preset holds: a full musical context, the part of day it suits, and whether it rotates. */
export interface PresetContext extends MusicContext {
  time_of_day: TimeOfDay | null;
  auto_rotate: boolean;
}

export interface PresetInput extends Omit<MusicContext, 'subgenre' | 'key_preference'> {
  name: string;
  subgenre?: string;
  key_preference?: KeyPreference;
  time_of_day?: TimeOfDay | null;
  auto_rotate?: boolean;
}

export interface PresetView extends PresetContext {
  preset_id: string;
  name: string;
  created_at: string;
}

export function toView(row: ContextRow): ContextView {
  return {
    context_id: row.contextId,
    genre: row.genre,
    subgenre: row.subgenre,
    mood: row.mood,
    lifestyle: row.lifestyle,
    tempo_range: [row.tempoMin, row.tempoMax],
    key_preference: row.keyPreference,
    energy_level: row.energyLevel,
    time_of_day: row.timeOfDay as TimeOfDay,
    active_since: row.activeSince.toISOString(),
    auto_rotate: row.autoRotate,
    next_rotation: row.nextRotation ? row.nextRotation.toISOString() : null,
  };
}

export function musicContextOf(view: MusicContext): MusicContext {
  return {
    genre: view.genre,
    subgenre: view.subgenre,
    mood: [...view.mood],
    lifestyle: view.lifestyle,
    tempo_range: [view.tempo_range[0], view.tempo_range[1]],
    key_preference: view.key_preference,
    energy_level: view.energy_level,
  };
}

export function presetContextOf(row: PresetRow): PresetContext {
  const c = row.context;
  return {
    genre: String(c.genre),
    subgenre: c.subgenre ?? '',
    mood: [...(c.mood ?? [])],
    lifestyle: c.lifestyle as Lifestyle,
    tempo_range: [c.tempo_range?.[0] ?? 80, c.tempo_range?.[1] ?? 120],
    key_preference: c.key_preference ?? 'any',
    energy_level: Number(c.energy_level ?? 0.5),
    time_of_day: isTimeOfDay(c.time_of_day) ? c.time_of_day : null,
    auto_rotate: c.auto_rotate ?? true,
  };
}

function isTimeOfDay(value: unknown): value is TimeOfDay {
  return (TIMES_OF_DAY as readonly unknown[]).includes(value);
}

export function presetView(row: PresetRow): PresetView {
  return { preset_id: row.presetId, name: row.name, ...presetContextOf(row), created_at: row.createdAt.toISOString() };
}

/** The rules the schema cannot express alone: tempo_range [min, max] inside 40..220 with min <= max. */
export function checkTempoRange(range: readonly number[] | undefined): void {
  if (!range) return;
  const [min, max] = range;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < TEMPO_MIN_BPM || max > TEMPO_MAX_BPM || min > max) {
    throw Errors.validation(`tempo_range must be [min, max] BPM with ${TEMPO_MIN_BPM} <= min <= max <= ${TEMPO_MAX_BPM} (got [${range.join(', ')}])`);
  }
}

/** The context a fresh station starts with when nothing else was set. */
const FIRST_CONTEXT: MusicContext = {
  genre: 'lo-fi hip hop',
  subgenre: 'chillhop',
  mood: ['calm', 'nostalgic'],
  lifestyle: 'focus',
  tempo_range: [70, 90],
  key_preference: 'any',
  energy_level: 0.4,
};

export interface ActivateOptions {
  presetId?: string | null;
  /** An operator's time_of_day; otherwise it follows server time. */
  timeOfDay?: TimeOfDay | null;
  rotatedFrom?: string | null;
}

export class ContextService {
  constructor(
    private readonly repo: ContextRepository,
    private readonly clock: Clock,
    private readonly rotationSec: number,
    private readonly sessionsOf: ContextSessions,
  ) {}

  /** The active context, creating the first one on a fresh station. */
  async current(): Promise<ContextRow> {
    return (await this.repo.current()) ?? this.activate(FIRST_CONTEXT, 'initial', true);
  }

  async currentView(): Promise<ContextView> {
    return toView(await this.current());
  }

  /** Makes `context` the active one from now; with autoRotate, the next rotation is one period away. */
  async activate(
    context: MusicContext,
    source: ContextSource,
    autoRotate: boolean,
    presetIdOrOptions: string | null | ActivateOptions = null,
  ): Promise<ContextRow> {
    const options: ActivateOptions = typeof presetIdOrOptions === 'object' && presetIdOrOptions !== null ? presetIdOrOptions : { presetId: presetIdOrOptions };
    const row = this.newRow(context, source, autoRotate, options);
    return this.repo.insert(row);
  }

  /** Like activate, for a rotation: null when another instance already rotated `from`. */
  async rotate(from: ContextRow, context: MusicContext, presetId: string | null, now: Date = this.clock.date()): Promise<ContextRow | null> {
    return this.repo.insertRotation({ ...this.newRow(context, 'rotation', true, { presetId }, now), rotatedFrom: from.contextId });
  }

  /**
   * An operator's override (PATCH /context/current): the given fields over the current context, as a new
   * current context that the very next generation uses. An overridden time_of_day holds until the next
   * rotation (one period from now when auto_rotate stays on); an earlier override of it is kept too.
   */
  async override(change: ContextChange): Promise<ContextView> {
    checkTempoRange(change.tempo_range);
    const current = await this.current();
    const base = musicContextOf(toView(current));
    const { time_of_day: timeOfDay, auto_rotate: autoRotate, ...music } = change;
    const merged: MusicContext = { ...base, ...music };
    const keptTimeOfDay = current.timeOfDayOverride ? (current.timeOfDay as TimeOfDay) : null;
    const row = await this.activate(merged, 'override', autoRotate ?? current.autoRotate, {
      presetId: null,
      timeOfDay: timeOfDay ?? keptTimeOfDay,
    });
    return toView(row);
  }

  async createPreset(input: PresetInput): Promise<PresetView> {
    checkTempoRange(input.tempo_range);
    const context: PresetContext = {
      genre: input.genre,
      subgenre: input.subgenre ?? '',
      mood: [...input.mood],
      lifestyle: input.lifestyle,
      tempo_range: [input.tempo_range[0], input.tempo_range[1]],
      key_preference: input.key_preference ?? 'any',
      energy_level: input.energy_level,
      time_of_day: input.time_of_day ?? null,
      auto_rotate: input.auto_rotate ?? true,
    };
    const row = await this.repo.insertPreset(input.name, context, this.clock.date());
    if (!row) throw Errors.conflict(`A preset named "${input.name}" already exists`, 'preset names are unique');
    return presetView(row);
  }

  async listPresets(query: { page?: number; limit?: number }) {
    const { page, limit, offset } = pageOf(query);
    const { rows, total } = await this.repo.listPresets(limit, offset);
    return { data: rows.map(presetView), total, page, limit };
  }

  /** The preset becomes the current context at once (time_of_day follows server time). */
  async activatePreset(presetId: string): Promise<ContextView> {
    const preset = await this.repo.findPreset(presetId);
    if (!preset) throw Errors.notFound('Preset', presetId);
    const context = presetContextOf(preset);
    return toView(await this.activate(musicContextOf(context), 'preset', context.auto_rotate, { presetId: preset.presetId }));
  }

  /** The contexts of the last 30 days, newest first, each with the generation sessions that used it. */
  async history(query: { page?: number; limit?: number }) {
    const { page, limit, offset } = pageOf(query);
    const since = new Date(this.clock.now() - HISTORY_DAYS * 24 * 3600 * 1000);
    const { rows, total } = await this.repo.history(since, limit, offset);
    const sessions = await this.sessionsOf(rows.map((r) => r.contextId));
    let newerActiveSince = rows.length > 0 ? await this.repo.activeUntil(rows[0].seq) : null;
    const data = rows.map((row) => {
      const used = sessions.filter((s) => s.contextId === row.contextId);
      const item = {
        ...toView(row),
        source: row.source as ContextSource,
        preset_id: row.presetId,
        preset_name: row.presetName,
        time_of_day_override: row.timeOfDayOverride,
        active_until: newerActiveSince ? newerActiveSince.toISOString() : null,
        generation_count: used.reduce((sum, s) => sum + s.generations, 0),
        sessions: used.map((s) => ({
          session_id: s.sessionId,
          generation_count: s.generations,
          first_generation_at: s.firstAt.toISOString(),
          last_generation_at: s.lastAt.toISOString(),
        })),
      };
      newerActiveSince = row.activeSince;
      return item;
    });
    return { data, total, page, limit };
  }

  /** The context a generation uses: a named one (404 if unknown) or the live one, with an override merged over it. */
  async resolveForGeneration(contextId: string | null, override: ContextOverride | null): Promise<{ contextId: string; context: MusicContext }> {
    const row = contextId ? await this.repo.findById(contextId) : await this.current();
    if (!row) throw Errors.notFound('Context', contextId ?? undefined);
    const base = musicContextOf(toView(row));
    const merged: MusicContext = { ...base, ...(override ?? {}) };
    if (merged.tempo_range[0] > merged.tempo_range[1]) throw Errors.validation('tempo_range must be [min, max] with min <= max');
    return { contextId: row.contextId, context: merged };
  }

  private newRow(context: MusicContext, source: ContextSource, autoRotate: boolean, options: ActivateOptions, now: Date = this.clock.date()) {
    return {
      contextId: `ctx_${randomUUID()}`,
      genre: context.genre,
      subgenre: context.subgenre,
      mood: context.mood,
      lifestyle: context.lifestyle,
      tempoMin: context.tempo_range[0],
      tempoMax: context.tempo_range[1],
      keyPreference: context.key_preference,
      energyLevel: context.energy_level,
      timeOfDay: options.timeOfDay ?? timeOfDayAt(now),
      timeOfDayOverride: Boolean(options.timeOfDay),
      autoRotate,
      activeSince: now,
      nextRotation: autoRotate ? new Date(now.getTime() + this.rotationSec * 1000) : null,
      source,
      presetId: options.presetId ?? null,
    };
  }
}
