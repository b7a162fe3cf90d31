/** A track as library, listeners, playlists, capsules and the catalog show it in their lists. */
import { Type } from '@sinclair/typebox';
import type { TrackRefRow } from '../catalog/display-reads.js';

/** A track as listed in a library, a playlist or a history (the contract's track list fields, plus slugs and status). */
export const TrackRef = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    artist: Type.String(),
    artist_id: Type.String(),
    artist_slug: Type.String(),
    duration: Type.Integer({ description: 'seconds' }),
    streams: Type.Integer(),
    genre: Type.String(),
    status: Type.String({ enum: ['published', 'removed'], description: 'removed: taken down; kept in histories and playlists' }),
  },
  { title: 'TrackRef' },
);

/** The row a catalog read hands out (the catalog's `displayReads`, src/platform/catalog/display-reads.ts). */
export type { TrackRefRow };

export function trackRef(row: TrackRefRow) {
  return {
    id: row.trackId,
    slug: row.trackSlug,
    title: row.trackTitle,
    artist: row.artistName,
    artist_id: row.artistId,
    artist_slug: row.artistSlug,
    duration: Math.round(row.durationSec),
    streams: row.streams,
    genre: row.genre,
    // A track being processed or whose upload failed is, to a listener, as gone as a removed one.
    status: row.trackStatus === 'published' ? ('published' as const) : ('removed' as const),
  };
}
