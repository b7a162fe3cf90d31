/**
 * Resolving a slot to what the stream plays: an AI slot's finished, not withheld generation (following
 * safety replacements), else a stand-in while it still renders, else a catalog replacement (with the
 * failure reported once); catalog slots get their master, or another when it vanished. Never the track
 * just handed out or the next planned one.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { StationEvents } from '../events/station-events.js';
import type { GenerationRepository } from '../generation/generation.repository.js';
import { GENERATION_STALE_MS, type GenerationService } from '../generation/generation.service.js';
import type { RegistryRow } from '../registry/registry.repository.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { SourceTrack } from '../stream/broadcaster.js';
import type { CatalogChoice } from './catalog-choice.js';
import { streamSource, type MediaDeps } from './stream-source.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface SlotResolverDeps extends MediaDeps {
  slots: SlotsRepository;
  catalogChoice: Pick<CatalogChoice, 'pick'>;
  catalog: Pick<CatalogRepository, 'findTrack'>;
  generationRepo: Pick<GenerationRepository, 'find' | 'replacementOf'>;
  generations: Pick<GenerationService, 'cancel'>;
  registry: Pick<RegistryService, 'get' | 'withheldReason'>;
  /** The registry's read port for fallback_mode hybrid: a reuse_eligible AI track that may play. */
  reusable: Pick<RegistryService, 'reusableAiTrack'>;
  events: Pick<StationEvents, 'emit'>;
  clock: Pick<Clock, 'now' | 'date'>;
}

export class SlotResolver {
  constructor(private readonly deps: SlotResolverDeps) {}

  /** A playable catalog master by the picker's rules, avoiding `alsoAvoid` unless nothing else exists. */
  private pick(config: StationConfigRow, alsoAvoid: string[] = []) {
    return this.deps.catalogChoice.pick(config, alsoAvoid, { strict: false });
  }

  /** The catalog tracks a slot played now must not repeat: the one just handed out and the next planned one. */
  private async neighbours(except: number | null): Promise<string[]> {
    const last = await this.deps.slots.lastHandedOut();
    const next = (await this.deps.slots.planned()).find((s) => s.id !== except);
    return [last?.trackId, next?.trackId].filter((id): id is string => !!id);
  }

  /**
   * The track a planned slot plays: its AI track when ready and not withheld, else (fallback_mode hybrid) a
   * reusable AI track, else a catalog track. `engineDown` is the scheduler's fallback state.
   */
  async resolve(slot: SlotRow, config: StationConfigRow, engineDown: boolean): Promise<SourceTrack | null> {
    if (slot.origin === 'ai_generated') {
      let generation = slot.generationId ? await this.deps.generationRepo.find(slot.generationId) : null;
      // A safety block starts a replacement with another seed: the slot follows it.
      for (let hops = 0; generation?.status === 'failed' && hops < 8; hops++) {
        const replacement = await this.deps.generationRepo.replacementOf(generation.id);
        if (!replacement) break;
        generation = replacement;
        await this.deps.slots.update(slot.id, { generationId: replacement.id });
      }
      if (generation?.status === 'complete' && generation.stationTrackId && generation.audioBlobKey) {
        const record = await this.deps.registry.get(generation.stationTrackId);
        const withheld = await this.deps.registry.withheldReason(record.stationTrackId);
        if (!withheld) {
          const cued = await this.deps.slots.cue(slot.id, { stationTrackId: record.stationTrackId, durationSec: record.durationSec });
          return cued ? this.source(cued, record.audioBlobKey, record.title, config) : null;
        }
        // The generation succeeded; the review keeps its track off air (and already raised its own event).
        await this.deps.slots.update(slot.id, { replacedReason: `the generated track is withheld (${withheld})` });
      } else {
        // Still rendering (and not stuck): a catalog track plays in between and the AI slot stays first in line.
        if (
          (generation?.status === 'pending' || generation?.status === 'in_progress') &&
          this.deps.clock.now() - generation.createdAt.getTime() < GENERATION_STALE_MS
        ) {
          const between = await this.standIn(config, 'AI track still rendering; it plays next');
          if (between) return between;
        }
        await this.fallBackToCatalog(slot, generation?.status ?? 'not started', generation?.id ?? null, generation?.status === 'failed');
      }
      if (engineDown && config.fallbackMode === 'hybrid') {
        const reused = await this.reuseAiTrack(slot, config);
        if (reused) return reused;
      }
      return this.replaceWithCatalog(slot, config);
    }
    return this.cueCatalog(slot, slot.trackId, config);
  }

  /**
   * Read only, changing nothing: the registered track an AI slot not resolved yet would play if the leader
   * resolved it now (its generation, or the safety replacement it led to, finished and not withheld), with the
   * generation it came from; null when it would not play its own track. A follower playing on alone airs it
   * (plan-reader.ts), and the leader continuing that follower's timeline cues the slot with it (track-source.ts).
   */
  async readyTrack(slot: SlotRow): Promise<{ generationId: string; record: RegistryRow } | null> {
    const generation = await this.latestGeneration(slot);
    if (generation?.status !== 'complete' || !generation.stationTrackId || !generation.audioBlobKey) return null;
    const record = await this.deps.registry.get(generation.stationTrackId);
    if (await this.deps.registry.withheldReason(record.stationTrackId)) return null;
    return { generationId: generation.id, record };
  }

  /**
   * Read only: whether an AI slot's track is still rendering (and not stuck), so the leader would play a
   * stand-in and keep the slot first in line rather than replace it.
   */
  async stillRendering(slot: SlotRow): Promise<boolean> {
    const generation = await this.latestGeneration(slot);
    return (
      (generation?.status === 'pending' || generation?.status === 'in_progress') && this.deps.clock.now() - generation.createdAt.getTime() < GENERATION_STALE_MS
    );
  }

  /** An AI slot's generation, or the last safety replacement it led to (read only: `resolve` records the hop). */
  private async latestGeneration(slot: SlotRow) {
    if (slot.origin !== 'ai_generated' || !slot.generationId) return null;
    let generation = await this.deps.generationRepo.find(slot.generationId);
    for (let hops = 0; generation?.status === 'failed' && hops < 8; hops++) {
      const replacement = await this.deps.generationRepo.replacementOf(generation.id);
      if (!replacement) break;
      generation = replacement;
    }
    return generation;
  }

  private async fallBackToCatalog(slot: SlotRow, status: string, generationId: string | null, alreadyReported: boolean) {
    const reason = status === 'failed' ? 'generation failed or was blocked' : `generation not ready in time (${status})`;
    if (generationId && status === 'pending') await this.deps.generations.cancel(generationId).catch(() => undefined);
    if (generationId && !alreadyReported) {
      // emit(), not the transactional outbox: the event is the scheduler's decision, recorded before the slot's
      // change (at least once: a crash before the update below decides again at the next resolve).
      await this.deps.events.emit('station.track.generation_failed', {
        generation_id: generationId,
        error_code: 'STATION_GENERATION_FAILED',
        message: `replaced by a catalog track: ${reason}`,
      });
    }
    await this.deps.slots.update(slot.id, { replacedReason: reason });
  }

  /** fallback_mode hybrid: an already registered AI track an admin marked reuse_eligible stands in. */
  private async reuseAiTrack(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null> {
    const recent = (await this.deps.slots.history(5)).map((s) => s.stationTrackId).filter((id): id is string => !!id);
    const record = await this.deps.reusable.reusableAiTrack(recent);
    if (!record) return null;
    const cued = await this.deps.slots.cue(slot.id, {
      stationTrackId: record.stationTrackId,
      durationSec: record.durationSec,
      replacedReason: 'reused a reuse_eligible AI track (fallback)',
    });
    return cued ? this.source(cued, record.audioBlobKey, record.title, config) : null;
  }

  private async replaceWithCatalog(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null> {
    const track = await this.pick(config, await this.neighbours(slot.id));
    return this.cueCatalog({ ...slot, origin: 'catalog' }, track?.id ?? null, config);
  }

  /** A catalog track played out of plan (nothing planned, or the AI slot first in line is not ready yet); the plan is kept. */
  async standIn(config: StationConfigRow, reason: string | null = null): Promise<SourceTrack | null> {
    const track = await this.pick(config, await this.neighbours(null));
    if (!track) return null;
    const state = await this.deps.slots.state(this.deps.clock.date());
    const slot = await this.deps.slots.insert({
      origin: 'catalog',
      trackId: track.id,
      sessionId: state.sessionId,
      durationSec: track.durationSec,
      replacedReason: reason,
    });
    return this.cueCatalog(slot, track.id, config);
  }

  private async cueCatalog(slot: SlotRow, trackId: string | null, config: StationConfigRow): Promise<SourceTrack | null> {
    const track = trackId ? await this.deps.catalog.findTrack(trackId, 'live') : null;
    if (!track?.playoutAudioKey) {
      const other = await this.pick(config, await this.neighbours(slot.id));
      if (!other || other.id === trackId) return null;
      return this.cueCatalog(slot, other.id, config);
    }
    const cued = await this.deps.slots.cue(slot.id, { origin: 'catalog', trackId: track.id, durationSec: track.durationSec });
    return cued ? this.source(cued, track.playoutAudioKey, track.title, config) : null;
  }

  source(slot: SlotRow, blobKey: string, title: string, config: StationConfigRow): SourceTrack {
    return streamSource(this.deps, slot, blobKey, title, config);
  }
}
