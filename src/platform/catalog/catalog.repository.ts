/** Catalog reads: tracks with their artists and credits. Filters run in SQL so pagination and totals agree. */
import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { namedStatement, type NamedStatement } from '../../infra/db/named-statement.js';
import { artists, playEvents, tracks } from '../../infra/db/schema/index.js';
import type { DeviceClass } from '../analytics/device-class.js';
import { idEq, isUuid } from '../../infra/db/ids.js';
import { playoutAudioKey, trackColumns, withArtist, type TrackRow, type TrackSummaryRow } from './track-columns.js';
import { hasSearchWords, TrackSearch, type TrackSearchOptions } from './track-search.js';
import type { Environment } from '../../kernel/environment.js';

export type { TrackRow, TrackSummaryRow } from './track-columns.js';
export interface CreditRow {
  songwriter_id: string;
  name: string;
  ipi: string | null;
  role: string;
  split_pct: number;
}

/**
 * The users group's read port (its module's `profiles`): a listener's profile country as a subquery, kept on
 * the play in the statement that records it. `user_profiles` is the users group's table.
 */
export interface ListenerCountry {
  countryOf(userId: string): SQL<string | null>;
}

/** How the catalog's repository reads: its search's statements, and the listener's country for a play. */
export interface CatalogRepositoryOptions extends TrackSearchOptions {
  /** Needed by `recordPlay` for a listener's play; a repository that records only radio airings may leave it out. */
  listenerCountry?: ListenerCountry;
}

export interface PlayInput {
  trackId: string;
  userId: string | null;
  source: 'radio' | 'on_demand';
  sessionId?: string;
  /** The listener's device (from the User-Agent); none for a radio airing. */
  deviceClass?: DeviceClass;
}

export interface TrackFilter {
  /** The caller's data space: live tracks, or the sandbox's (a test key). Never mixed. */
  environment: Environment;
  search?: string;
  genre?: string;
  artist?: string;
  artistId?: string;
  /** false: only tracks on no release. */
  onRelease?: boolean;
  /** Admins see every status (removed, processing, failed too); everyone else published tracks only. */
  anyStatus?: boolean;
}

/** What a track detail answer shows: one json field per entry, named as in TrackRow. */
const detailFields = {
  id: tracks.id,
  environment: tracks.environment,
  slug: tracks.slug,
  title: tracks.title,
  artistName: artists.name,
  artistSlug: artists.slug,
  artistVerified: artists.verified,
  durationSec: tracks.durationSec,
  streams: tracks.streams,
  genre: tracks.genre,
  subgenre: tracks.subgenre,
  mood: tracks.mood,
  bpm: tracks.bpm,
  musicalKey: tracks.musicalKey,
  mode: tracks.mode,
  isrc: tracks.isrc,
  explicit: tracks.explicit,
  releaseYear: tracks.releaseYear,
  coverBlobKey: tracks.coverBlobKey,
  lifestyle: tracks.lifestyle,
  energy: tracks.energy,
  audioBlobKey: tracks.audioBlobKey,
  masterBlobKey: tracks.masterBlobKey,
  audioFormat: tracks.audioFormat,
  audioBitrateKbps: tracks.audioBitrateKbps,
  audioSizeBytes: tracks.audioSizeBytes,
  waveformBlobKey: tracks.waveformBlobKey,
  loudnessLufs: tracks.loudnessLufs,
  status: tracks.status,
  albumId: tracks.albumId,
  trackNumber: tracks.trackNumber,
  createdAt: tracks.createdAt,
};
export type TrackDetailFields = Pick<TrackRow, keyof typeof detailFields | 'playoutAudioKey'>;

/** The detail as it arrives: json keeps every field's value but the timestamp, which comes as text. */
interface TrackDetailJson {
  track: Omit<TrackDetailFields, 'createdAt' | 'playoutAudioKey'> & { createdAt: string | Date; playoutAudioKey?: string | null };
  credits: CreditRow[];
  hasLyrics: boolean;
}

/**
 * The detail in one indexed query (`$id` a placeholder) and one json field: a select of 27 columns costs
 * more CPU in node-postgres and Drizzle (a parser and a mapping per column, per row) than the query costs
 * PostgreSQL; one json value is parsed natively (bench/README.md, HTTP).
 */
function trackDetailQuery(db: Db, anyStatus: boolean) {
  const fields = sql.join(
    Object.entries(detailFields).map(([name, column]) => sql`${sql.raw(`'${name}'`)}, ${column}`),
    sql`, `,
  );
  return db
    .select({
      detail: sql<TrackDetailJson | string>`json_build_object(
        'track', json_build_object(${fields}),
        'credits', coalesce((
          select json_agg(json_build_object('songwriter_id', s.id, 'name', s.name, 'ipi', s.ipi, 'role', c.role, 'split_pct', c.split_pct)
                          order by c.split_pct desc, s.name)
          from track_credits c join songwriters s on s.id = c.songwriter_id
          where c.track_id = ${tracks.id}), '[]'::json),
        'hasLyrics', exists (select 1 from lyrics l where l.track_id = ${tracks.id}))`.as('detail'),
    })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(
      and(eq(tracks.id, sql.placeholder('id')), eq(tracks.environment, sql.placeholder('environment')), anyStatus ? undefined : eq(tracks.status, 'published')),
    )
    .limit(1);
}

/** The detail statement's one column: json, parsed by node-postgres; PGlite's driver may hand it over as text. */
interface DetailRow {
  detail: TrackDetailJson | string;
}

export class CatalogRepository {
  /**
   * Track detail is the catalog's hottest read. Building the query with Drizzle cost more CPU than the
   * query itself (bench/README.md, HTTP), so it is built once; on PostgreSQL it is also a named prepared
   * statement, parsed and planned once per connection.
   */
  private readonly trackDetail: NamedStatement<DetailRow>;

  /** The same for admins, who also see tracks taken down or still processing. */
  private readonly anyTrackDetail: NamedStatement<DetailRow>;

  private readonly search: TrackSearch;

  constructor(
    private readonly db: Db,
    private readonly options?: CatalogRepositoryOptions,
  ) {
    this.trackDetail = namedStatement(db, 'catalog_track_detail', trackDetailQuery(db, false));
    this.anyTrackDetail = namedStatement(db, 'catalog_track_detail_any_status', trackDetailQuery(db, true));
    this.search = new TrackSearch(db, options && { concurrentStatements: options.concurrentStatements });
  }

  /** The filter's conditions besides the search, on tracks alone (the artist by a subquery). */
  private trackConditions(filter: TrackFilter): SQL[] {
    const conditions: SQL[] = [eq(tracks.environment, filter.environment)];
    if (!filter.anyStatus) conditions.push(eq(tracks.status, 'published'));
    if (filter.genre) conditions.push(sql`lower(${tracks.genre}) = lower(${filter.genre})`);
    if (filter.artist) {
      const named = or(eq(artists.slug, filter.artist), idEq(artists.id, filter.artist), sql`lower(${artists.name}) = lower(${filter.artist})`);
      conditions.push(
        inArray(
          tracks.artistId,
          this.db
            .select({ id: artists.id })
            .from(artists)
            .where(and(eq(artists.environment, filter.environment), named)),
        ),
      );
    }
    if (filter.artistId) conditions.push(eq(tracks.artistId, filter.artistId));
    if (filter.onRelease === false) conditions.push(isNull(tracks.albumId));
    return conditions;
  }

  /**
   * A page of published tracks and the total: with a search, by relevance (src/platform/catalog/track-search.ts),
   * otherwise most streamed first. Without a search the total is counted only when the page does not tell it
   * (a full page, or an empty page past the first).
   */
  async listTracks(filter: TrackFilter, limit: number, offset: number): Promise<{ rows: TrackSummaryRow[]; total: number }> {
    const conditions = this.trackConditions(filter);
    if (filter.search !== undefined) {
      if (!hasSearchWords(filter.search)) return { rows: [], total: 0 };
      const wholeCatalog =
        filter.environment === 'live' && !filter.anyStatus && !filter.genre && !filter.artist && !filter.artistId && filter.onRelease === undefined;
      return this.search.page({ text: filter.search, where: conditions, limit, offset, key: JSON.stringify(filter), wholeCatalog });
    }
    const where = and(...conditions);
    const rows = await this.db
      .select(trackColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(where)
      .orderBy(desc(tracks.streams), asc(tracks.title), asc(tracks.id))
      .limit(limit)
      .offset(offset);
    const pageTellsTotal = rows.length > 0 ? rows.length < limit : offset === 0;
    const total = pageTellsTotal ? offset + rows.length : (await this.db.select({ total: count() }).from(tracks).where(where))[0].total;
    return { rows: rows.map((r) => withArtist(r)), total };
  }

  /** The published tracks of these releases, release by release in track order. */
  async releaseTracks(albumIds: string[]): Promise<TrackRow[]> {
    if (albumIds.length === 0) return [];
    const rows = await this.db
      .select(trackColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(inArray(tracks.albumId, albumIds), eq(tracks.status, 'published')))
      .orderBy(asc(tracks.albumId), asc(tracks.trackNumber));
    return rows.map((r) => withArtist(r));
  }

  /** A published track of the environment: a track of the other one is not found. */
  async findTrack(id: string, environment: Environment): Promise<TrackRow | null> {
    const [row] = await this.db
      .select(trackColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, id), eq(tracks.environment, environment), eq(tracks.status, 'published')))
      .limit(1);
    return row ? withArtist(row) : null;
  }

  /** A track of the environment with its credits and lyrics flag in one indexed query (the catalog's hottest read). */
  async findTrackDetail(id: string, environment: Environment, anyStatus = false) {
    if (!isUuid(id)) return null; // no uuid column can hold it: not found, without asking the database
    const [row] = await (anyStatus ? this.anyTrackDetail : this.trackDetail)({ id, environment });
    if (!row) return null;
    const detail: TrackDetailJson = typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail;
    detail.track.createdAt = new Date(detail.track.createdAt);
    // What the radio airs, derived as findTrack derives it (track-columns.ts): the detail is the same row.
    detail.track.playoutAudioKey = playoutAudioKey(detail.track);
    return detail as { track: TrackDetailFields; credits: CreditRow[]; hasLyrics: boolean };
  }

  /**
   * One play event: the one record of a play that every count reads (history, analytics, `streams`). The
   * insert's trigger adds it to the track's `streams` and to the live analytics feed in the same statement.
   * A listener's play keeps the country of their profile as it is now; a radio airing has no listener.
   */
  private listenerCountry(): ListenerCountry {
    const port = this.options?.listenerCountry;
    if (!port) throw new Error("a listener's play needs the users group's country port (CatalogRepositoryOptions.listenerCountry)");
    return port;
  }

  async recordPlay(input: PlayInput) {
    const country = input.userId ? this.listenerCountry().countryOf(input.userId) : null;
    await this.db.insert(playEvents).values({
      trackId: input.trackId,
      userId: input.userId,
      source: input.source,
      sessionId: input.sessionId ?? null,
      deviceClass: input.deviceClass ?? null,
      country,
    });
  }
}
