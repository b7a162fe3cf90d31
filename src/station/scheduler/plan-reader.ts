/**
 * The running order read, never changed: what a follower plays while it is cut off from the leader's frames
 * (Redis down, so neither a bus nor a leader; see src/station/stream/live-stream.ts). It continues the slot on
 * air, then the slot the leader cued after it, then the planned ones in order, as the leader hands them out.
 * It cues, starts and counts nothing: the next leader does, continuing the same timeline.
 */
import type { ConfigRepository } from '../admin/config.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { SourceTrack, TrackSource } from '../stream/broadcaster.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface PlanReaderDeps {
  slots: Pick<SlotsRepository, 'find' | 'lastHandedOut' | 'planned'>;
  config: Pick<ConfigRepository, 'get'>;
  /** The master of a slot that has one (the scheduler's). */
  sourceOf(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null>;
}

export class PlanReader implements TrackSource {
  /** Slots this reader handed out: each plays once on its timeline. */
  private readonly handed = new Set<number>();

  constructor(private readonly deps: PlanReaderDeps) {}

  async resume(id: string): Promise<SourceTrack | null> {
    if (!Number.isSafeInteger(Number(id))) return null;
    const slot = await this.deps.slots.find(Number(id));
    if (!slot || (slot.status !== 'playing' && slot.status !== 'planned')) return null;
    this.handed.add(slot.id);
    return this.deps.sourceOf(slot, await this.deps.config.get());
  }

  async next(): Promise<SourceTrack | null> {
    const config = await this.deps.config.get();
    if (!config.radioEnabled) return null;
    const last = await this.deps.slots.lastHandedOut();
    const cued = last && last.status === 'playing' && !last.startedAt ? [last] : [];
    for (const slot of [...cued, ...(await this.deps.slots.planned())]) {
      if (this.handed.has(slot.id)) continue;
      this.handed.add(slot.id);
      // An AI slot whose track is not resolved yet is left to the leader (resolving it cues and may replace it).
      const source = await this.deps.sourceOf(slot, config);
      if (source) return source;
    }
    return null;
  }
}
