/** How catalog reads select a track with its artist (catalog.repository.ts and track-search.ts alike). */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { artists, tracks } from '../../infra/db/schema/index.js';

/** A track's columns but its search document (kept by the database for search only, never read back). */
const { searchVector: _searchVector, ...trackFields } = getTableColumns(tracks);
export type TrackFields = Omit<typeof tracks.$inferSelect, 'searchVector'>;

/**
 * `playoutAudioKey`: what the radio airs, the best source the platform keeps: the lossless master (or an MP3
 * upload's original) when there is one, else the stream audio. The radio encodes its stream from it, so what
 * airs is one lossy encode from the master (issue 18).
 */
export type TrackRow = TrackFields & { artistName: string; artistSlug: string; artistVerified: boolean; playoutAudioKey: string | null };

/** The blob the radio airs for a track (TrackRow.playoutAudioKey). */
export const playoutAudioKey = (track: Pick<TrackFields, 'masterBlobKey' | 'audioBlobKey'>): string | null => track.masterBlobKey ?? track.audioBlobKey;

/** What a list answer shows of a track (catalog.service.ts, trackSummary): a search reads only these. */
export type TrackSummaryRow = Pick<
  TrackRow,
  | 'id'
  | 'environment'
  | 'slug'
  | 'title'
  | 'artistName'
  | 'artistSlug'
  | 'artistVerified'
  | 'durationSec'
  | 'streams'
  | 'genre'
  | 'subgenre'
  | 'mood'
  | 'bpm'
  | 'musicalKey'
  | 'mode'
  | 'isrc'
  | 'explicit'
  | 'releaseYear'
  | 'coverBlobKey'
  | 'albumId'
  | 'trackNumber'
>;

export const trackColumns = {
  track: trackFields,
  artistName: artists.name,
  artistSlug: artists.slug,
  artistVerified: artists.verified,
};

/**
 * A TrackSummaryRow as one json value, of track `t` and artist `a` (SQL aliases). One json column is parsed
 * natively by the driver; twenty columns cost a parser and a Drizzle mapping each, per row (bench/README.md).
 * Every value is json-native (numbers, strings, booleans, the mood array), so none needs converting back.
 */
export const trackSummaryJson: SQL = sql.raw(`json_build_object(
  'id', t.id, 'environment', t.environment, 'slug', t.slug, 'title', t.title, 'artistName', a.name, 'artistSlug', a.slug,
  'artistVerified', a.verified, 'durationSec', t.duration_sec, 'streams', t.streams, 'genre', t.genre, 'subgenre', t.subgenre, 'mood', t.mood, 'bpm', t.bpm,
  'musicalKey', t.musical_key, 'mode', t.mode, 'isrc', t.isrc, 'explicit', t.explicit, 'releaseYear', t.release_year,
  'coverBlobKey', t.cover_blob_key, 'albumId', t.album_id, 'trackNumber', t.track_number)`);

/** A track row with its artist's name and slug (Object.assign: a spread with new keys is slow in V8, see catalog.service.ts). */
export function withArtist(row: { track: TrackFields; artistName: string; artistSlug: string; artistVerified: boolean }): TrackRow {
  return Object.assign(row.track, {
    artistName: row.artistName,
    artistSlug: row.artistSlug,
    artistVerified: row.artistVerified,
    playoutAudioKey: playoutAudioKey(row.track),
  });
}
