/**
 * Tracks as the stream plays them: the master itself (the playout decodes it and encodes the stream at
 * stream_quality), its analysis from the cache, and the crossfade asked for when it was cued.
 */
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { GenerationRepository } from '../generation/generation.repository.js';
import type { PlayoutAnalyses } from '../stream/playout-analyses.js';
import type { SourceTrack } from '../stream/broadcaster.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface MediaDeps {
  blobs: BlobStore;
  analyses: PlayoutAnalyses;
  slots?: Pick<SlotsRepository, 'update'>;
}

export function streamSource(deps: MediaDeps, slot: SlotRow, blobKey: string, title: string, config: StationConfigRow): SourceTrack {
  return {
    id: String(slot.id),
    bitrateKbps: Number.parseInt(config.streamQuality, 10),
    crossfadeSec: config.crossfadeSec,
    title,
    read: () => deps.blobs.get(blobKey),
    analysis: async (bytes) => {
      const analysis = await deps.analyses.forBlob(blobKey, bytes);
      // History and now-playing report the length of the master that airs. A catalog row may describe
      // another master by then: a demo master rendered short first is lengthened under a new key while the
      // short one is cued (it aired as a 30 s render while history said 150 s).
      if (deps.slots && Math.abs((slot.durationSec ?? 0) - analysis.durationSec) >= 0.5) {
        await deps.slots.update(slot.id, { durationSec: analysis.durationSec });
        slot.durationSec = analysis.durationSec;
      }
      return analysis;
    },
  };
}

/**
 * Measures the masters of the next two slots ahead of time (catalog tracks, and AI tracks already
 * rendered), so the stream never waits on an analysis.
 */
export type WarmDeps = MediaDeps & {
  slots: Pick<SlotsRepository, 'planned' | 'update'>;
  catalog: Pick<CatalogRepository, 'findTrack'>;
  generationRepo: Pick<GenerationRepository, 'find'>;
};

export async function warmAnalyses(deps: WarmDeps): Promise<void> {
  for (const slot of (await deps.slots.planned()).slice(0, 2)) {
    let blobKey: string | null = null;
    if (slot.origin === 'catalog' && slot.trackId) blobKey = (await deps.catalog.findTrack(slot.trackId, 'live'))?.playoutAudioKey ?? null;
    if (slot.origin === 'ai_generated' && slot.generationId) {
      const generation = await deps.generationRepo.find(slot.generationId);
      if (generation?.status === 'complete') blobKey = generation.audioBlobKey;
    }
    if (blobKey) await deps.analyses.forBlob(blobKey);
  }
}
