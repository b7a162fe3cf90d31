/** Tracks as the stream plays them: at stream_quality, re-encoded once when the master differs. */
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { Renditions } from '../radio/renditions.js';
import type { SourceTrack } from '../radio/stream/broadcaster.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

interface MediaDeps {
  blobs: BlobStore;
  renditions: Renditions;
}

export function streamSource(deps: MediaDeps, slot: SlotRow, blobKey: string, masterKbps: number | null, title: string, config: StationConfigRow): SourceTrack {
  return {
    id: String(slot.id),
    bitrateKbps: Number.parseInt(config.streamQuality, 10),
    title,
    read: async () => deps.blobs.get(await deps.renditions.keyFor(blobKey, masterKbps, config.streamQuality)),
  };
}

/** Prepares the renditions of the next catalog slots ahead of time, so the stream never waits on one. */
export async function warmRenditions(deps: MediaDeps & { slots: SlotsRepository; catalog: CatalogRepository }, config: StationConfigRow): Promise<void> {
  for (const slot of (await deps.slots.planned()).slice(0, 2)) {
    if (slot.origin !== 'catalog' || !slot.trackId) continue;
    const track = await deps.catalog.findTrack(slot.trackId);
    if (track?.audioBlobKey) await deps.renditions.keyFor(track.audioBlobKey, track.audioBitrateKbps, config.streamQuality);
  }
}
