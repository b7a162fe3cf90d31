/** Builds now-playing cards for catalog and AI slots. */
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { NowPlayingCard } from '../events/now-playing.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { CatalogRadioReads } from './catalog-reads.js';
import type { SlotRow } from './slots.repository.js';

export const STATION_DISPLAY_NAME = 'Station';
/** Card links outlive any single track. */
const CARD_LINK_TTL_SEC = 6 * 3600;

export type CardWithoutTiming = Omit<NowPlayingCard, 'elapsed_sec' | 'started_at'>;

export class CardBuilder {
  constructor(
    /** The catalog's read port: a catalog track and its artist's name. */
    private readonly catalog: Pick<CatalogRadioReads, 'trackWithArtist'>,
    private readonly registry: RegistryService,
    private readonly signer: UrlSigner,
  ) {}

  private link(key: string | null): string | null {
    return key ? this.signer.sign(key, CARD_LINK_TTL_SEC).url : null;
  }

  async forSlot(slot: SlotRow): Promise<CardWithoutTiming | null> {
    if (slot.origin === 'ai_generated' && slot.stationTrackId) {
      const record = await this.registry.get(slot.stationTrackId);
      return {
        station_track_id: record.stationTrackId,
        title: record.title,
        artist: STATION_DISPLAY_NAME,
        is_ai_generated: true,
        track_origin: 'ai_generated',
        genre: record.genre,
        mood: record.mood,
        duration_sec: record.durationSec,
        cover_art_url: this.link(record.coverBlobKey),
        waveform_url: this.link(record.waveformBlobKey),
        transparency: {
          model_version: record.modelVersion,
          influencing_genre: record.genre,
          influencing_mood: record.mood,
          lyrics_source: record.lyricsModelVersion ? "the station's lyrics model, trained only on the platform's own songwriters" : null,
        },
      };
    }
    if (!slot.trackId) return null;
    const row = await this.catalog.trackWithArtist(slot.trackId);
    if (!row) return null;
    return {
      // Catalog tracks are identified by their catalog id (there is no registry record for them).
      station_track_id: row.track.id,
      title: row.track.title,
      artist: row.artistName,
      is_ai_generated: false,
      track_origin: 'catalog',
      genre: row.track.genre,
      mood: row.track.mood,
      // The slot's length is the master it aired (stream-source.ts); the row may since have another one.
      duration_sec: Math.round(slot.durationSec ?? row.track.durationSec),
      cover_art_url: this.link(row.track.coverBlobKey),
      waveform_url: this.link(row.track.waveformBlobKey),
    };
  }
}
