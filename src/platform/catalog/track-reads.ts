/**
 * The catalog's read port for the station: a track's stored style features (the safety filter's dry run),
 * the names of tracks found by id (a generated track's "influenced by"), the platform's own artists named by
 * id or slug (a lyric's style artists), whether a track is in the live catalog (the radio's feedback), and for the
 * radio's scheduler the tracks it may play, their artists, whether one still can play and a track's now-playing card;
 * which tracks, songwriters and artists a training dataset names are the platform's own (the transparency's check);
 * the training inputs, platform-owned masters' features and lyrics as the engine reads them (the dataset's loaders,
 * which the safety reference shares, with the stored features of every master);
 * and one write, for the playout: the loudness it measured of a master whose catalog tracks were never measured.
 * Published by the catalog module as `trackReads`; the station's modules declare the part they use on their side.
 */
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq, isUuid } from '../../infra/db/ids.js';
import { artists, lyrics, songwriters, trackFeatures, tracks } from '../../infra/db/schema/index.js';

type TrackRow = typeof tracks.$inferSelect;

/** A catalog track named with its artist, and whether that artist is the platform's own. */
export interface NamedTrack {
  id: string;
  title: string;
  artist: string;
  platformOwned: boolean;
}

export class CatalogTrackReads {
  constructor(private readonly db: Db) {}

  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  async trackFeatures(trackId: string): Promise<AudioFeatures | null> {
    const [row] = await this.db.select({ features: trackFeatures.features }).from(trackFeatures).where(idEq(trackFeatures.trackId, trackId)).limit(1);
    return row ? row.features : null;
  }

  /** The stored style features of every catalog track that has them, by track id (the safety reference). */
  async everyTrackFeatures(): Promise<{ id: string; features: AudioFeatures }[]> {
    return this.db.select({ id: trackFeatures.trackId, features: trackFeatures.features }).from(trackFeatures).orderBy(trackFeatures.trackId);
  }

  /** The tracks of these ids that exist, with their artists' names (in no particular order). */
  async namedTracks(ids: string[]): Promise<NamedTrack[]> {
    return this.db
      .select({ id: tracks.id, title: tracks.title, artist: artists.name, platformOwned: artists.platformOwned })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(inArray(tracks.id, ids));
  }

  /** Platform-owned artists named by id or slug, with their slugs (what the lyrics model knows them by). */
  async platformArtists(idsOrSlugs: string[]): Promise<{ id: string; slug: string }[]> {
    if (idsOrSlugs.length === 0) return [];
    const ids = idsOrSlugs.filter(isUuid);
    return this.db
      .select({ id: artists.id, slug: artists.slug })
      .from(artists)
      .where(and(eq(artists.platformOwned, true), or(inArray(artists.slug, idsOrSlugs), ids.length ? inArray(artists.id, ids) : undefined)));
  }

  /** The ids among these of tracks by platform-owned artists. */
  async platformOwnedTrackIds(ids: string[]): Promise<string[]> {
    const rows = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(inArray(tracks.id, ids), eq(artists.platformOwned, true)));
    return rows.map((row) => row.id);
  }

  /** The slugs among these of the platform's own songwriters. */
  async platformSongwriterSlugs(slugs: string[]): Promise<string[]> {
    const rows = await this.db
      .select({ slug: songwriters.slug })
      .from(songwriters)
      .where(and(inArray(songwriters.slug, slugs), eq(songwriters.platformOwned, true)));
    return rows.map((row) => row.slug);
  }

  /** The slugs among these of platform-owned artists. */
  async platformArtistSlugs(slugs: string[]): Promise<string[]> {
    const rows = await this.db
      .select({ slug: artists.slug })
      .from(artists)
      .where(and(inArray(artists.slug, slugs), eq(artists.platformOwned, true)));
    return rows.map((row) => row.slug);
  }

  /** Audio features of masters by platform-owned artists (of these tracks only, when named), by track id. */
  async platformAudioItems(trackIds?: string[]): Promise<{ id: string; genre: string; mood: string[]; features: AudioFeatures }[]> {
    return this.db
      .select({ id: tracks.id, genre: tracks.genre, mood: tracks.mood, features: trackFeatures.features })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .innerJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
      .where(and(eq(artists.platformOwned, true), trackIds ? inArray(tracks.id, trackIds) : undefined))
      .orderBy(asc(tracks.id));
  }

  /**
   * Lyrics as the engine reads them (LyricsDocument, artists and songwriters by slug), by slug. Training reads only
   * the platform's own; the safety reference reads every lyric the platform holds, since no generated line may
   * copy any of them. In `tx` when given (a dataset snapshot reads them in its transaction).
   */
  async lyricDocuments(
    options: { platformOnly: boolean; lyricIds?: string[] },
    tx: DbOrTx = this.db,
  ): Promise<{ lyricId: string; document: LyricsDocument }[]> {
    const rows = await tx
      .select({
        id: lyrics.id,
        slug: lyrics.slug,
        title: lyrics.title,
        language: lyrics.language,
        mood: lyrics.mood,
        theme: lyrics.theme,
        sections: lyrics.sections,
        songwriterSlug: songwriters.slug,
        artistSlug: artists.slug,
      })
      .from(lyrics)
      .innerJoin(songwriters, eq(songwriters.id, lyrics.songwriterId))
      .innerJoin(artists, eq(artists.id, lyrics.artistId))
      .where(
        and(
          options.platformOnly ? and(eq(songwriters.platformOwned, true), eq(artists.platformOwned, true)) : undefined,
          options.lyricIds ? inArray(lyrics.id, options.lyricIds) : undefined,
        ),
      )
      .orderBy(asc(lyrics.slug));
    return rows.map((row) => ({
      lyricId: row.id,
      document: {
        id: row.slug,
        title: row.title,
        songwriterId: row.songwriterSlug,
        artistId: row.artistSlug,
        language: row.language,
        mood: row.mood,
        theme: row.theme,
        sections: row.sections,
      },
    }));
  }

  /** Whether a track is published in the live catalog (the radio's listeners are live: a sandbox track is none of theirs). */
  async publishedLiveTrackExists(trackId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, trackId), eq(tracks.environment, 'live'), eq(tracks.status, 'published')))
      .limit(1);
    return !!row;
  }

  /**
   * Published live catalog tracks with a master (explicit ones only when the station allows them). The sandbox's
   * tracks (environment 'test', what test keys see) never go on air, nor do those of an artist that is neither
   * verified by an admin nor platform-owned (contract: unverified artists' tracks are public but off the radio).
   */
  async radioCandidates(explicitAllowed: boolean) {
    return this.db
      .select({
        id: tracks.id,
        artistId: tracks.artistId,
        genre: tracks.genre,
        subgenre: tracks.subgenre,
        mood: tracks.mood,
        bpm: tracks.bpm,
        durationSec: tracks.durationSec,
      })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(
        and(
          eq(tracks.environment, 'live'),
          eq(tracks.status, 'published'),
          isNotNull(tracks.audioBlobKey),
          or(eq(artists.verified, true), eq(artists.platformOwned, true)),
          explicitAllowed ? undefined : sql`${tracks.explicit} = false`,
        ),
      );
  }

  /** The artist of each of these tracks that exists, by track id. */
  async artistIdsOf(trackIds: string[]): Promise<Map<string, string>> {
    if (trackIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: tracks.id, artistId: tracks.artistId })
      .from(tracks)
      .where(inArray(tracks.id, [...new Set(trackIds)]));
    return new Map(rows.map((row) => [row.id, row.artistId]));
  }

  /** Whether a track can still be played: published, with a master. */
  async playable(trackId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.id, trackId), eq(tracks.status, 'published'), isNotNull(tracks.audioBlobKey)))
      .limit(1);
    return !!row;
  }

  /**
   * Gives the tracks of this master whose loudness was never measured (demo masters, rendered rather than
   * uploaded) the loudness the playout measured; in `tx`, the transaction that stores the measurement.
   */
  async fillMeasuredLoudness(blobKey: string, loudnessLufs: number, tx: DbOrTx): Promise<void> {
    await tx
      .update(tracks)
      .set({ loudnessLufs })
      .where(and(eq(tracks.audioBlobKey, blobKey), isNull(tracks.loudnessLufs)));
  }

  /** A track with its artist's name (a now-playing card), or null when it does not exist. */
  async trackWithArtist(trackId: string): Promise<{ track: TrackRow; artistName: string } | null> {
    const [row] = await this.db
      .select({ track: tracks, artistName: artists.name })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(eq(tracks.id, trackId))
      .limit(1);
    return row ?? null;
  }
}
