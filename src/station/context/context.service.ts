/**
 * Module D's core: the live context every generation follows. This part resolves contexts for
 * generation; rotation, presets and overrides build on it.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../http/errors.js';
import type { MusicContext } from '../../engine/types.js';
import type { ContextRepository, ContextRow } from './context.repository.js';

export type TimeOfDay = 'night' | 'morning' | 'afternoon' | 'evening';

export function timeOfDayAt(date: Date): TimeOfDay {
  const hour = date.getUTCHours();
  if (hour < 6) return 'night';
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

export interface ContextView extends MusicContext {
  context_id: string;
  time_of_day: string;
  active_since: string;
  auto_rotate: boolean;
  next_rotation: string | null;
}

export type ContextOverride = Partial<MusicContext>;

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
    time_of_day: row.timeOfDay,
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

export class ContextService {
  constructor(
    private readonly repo: ContextRepository,
    private readonly clock: Clock,
    private readonly rotationSec: number,
  ) {}

  /** The active context, creating the first one on a fresh station. */
  async current(): Promise<ContextRow> {
    return (await this.repo.current()) ?? this.activate(FIRST_CONTEXT, 'initial', true);
  }

  async activate(context: MusicContext, source: string, autoRotate: boolean, presetId: string | null = null): Promise<ContextRow> {
    const now = this.clock.date();
    return this.repo.insert({
      contextId: `ctx_${randomUUID()}`,
      genre: context.genre,
      subgenre: context.subgenre,
      mood: context.mood,
      lifestyle: context.lifestyle,
      tempoMin: context.tempo_range[0],
      tempoMax: context.tempo_range[1],
      keyPreference: context.key_preference,
      energyLevel: context.energy_level,
      timeOfDay: timeOfDayAt(now),
      autoRotate,
      activeSince: now,
      nextRotation: autoRotate ? new Date(now.getTime() + this.rotationSec * 1000) : null,
      source,
      presetId,
    });
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
}
