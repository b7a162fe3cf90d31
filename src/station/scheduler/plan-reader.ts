/**
 * The running order read, never changed: what a follower plays while it is cut off from the leader's frames
 * (Redis down, so neither a bus nor a leader; see src/station/stream/live-stream.ts). It continues the slot on
 * air, then the slot the leader cued after it, then the planned ones in order, as the leader hands them out.
 * It cues, starts and counts nothing: the next leader does, continuing the same timeline.
 *
 * An AI slot plays what the leader would give it where that is decided by the database alone: its finished
 * track (read as the leader resolves it: the generation or its safety replacement, complete, not withheld),
 * which the leader then cues when it continues this timeline. Where the leader would choose a catalog track at
 * random (a stand-in while the track still renders, a replacement when it failed), a reader cannot agree with
 * the other instances on the same pick, so the next planned catalog slot stands in: every instance playing
 * alone plays the same one. A slot still rendering stays first in line, as with the leader: each later track
 * asks for it again.
 */
import type { ConfigRepository } from '../admin/config.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { SourceTrack, TrackSource } from '../stream/broadcaster.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface PlanReaderDeps {
  slots: Pick<SlotsRepository, 'find' | 'lastHandedOut' | 'planned'>;
  config: Pick<ConfigRepository, 'get'>;
  /** The master of a slot that has one, an AI slot's finished track included (the scheduler's). */
  sourceOf(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null>;
  /** Whether an AI slot's track is still rendering (the leader would keep it first in line). */
  stillRendering(slot: SlotRow): Promise<boolean>;
}

export class PlanReader implements TrackSource {
  /** Slots this reader handed out: each plays once on its timeline. */
  private readonly handed = new Set<number>();

  constructor(private readonly deps: PlanReaderDeps) {}

  async resume(id: string, continued: readonly string[] = [id]): Promise<SourceTrack | null> {
    if (!Number.isSafeInteger(Number(id))) return null;
    const slot = await this.deps.slots.find(Number(id));
    // The outgoing track of a crossfade may be closed already (the incoming one's start was recorded).
    const fadingOut = continued.length > 1 && continued[0] === id && slot?.status === 'played';
    if (!slot || (slot.status !== 'playing' && slot.status !== 'planned' && !fadingOut)) return null;
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
      const source = await this.deps.sourceOf(slot, config);
      // Not playable now: a slot still rendering is asked for again after the next track; any other is left to
      // the leader (who replaces it) and the next planned one plays.
      if (source || !(await this.deps.stillRendering(slot))) this.handed.add(slot.id);
      if (source) return source;
    }
    return null;
  }
}
