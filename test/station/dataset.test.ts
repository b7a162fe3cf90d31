/**
 * Module B (dataset manager) on the demo catalog plus a few third-party rows: the configuration and its
 * fixed sources, every filter and gate really changing the eligible set and the statistics, the artist list
 * and its audit trail, snapshots and their hash (recomputed here independently), the loader module C uses,
 * and validation (missing master, undecodable master, lyric attribution, near-duplicate of third-party
 * audio). Runs on PGlite, or PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { createMp3Stream } from '../../src/engine/audio/encode.js';
import type { AudioFeatures } from '../../src/engine/types.js';
import { DomainError } from '../../src/errors.js';
import type { Db } from '../../src/infra/db/client.js';
import {
  artists,
  datasetArtistAudit,
  datasetArtistStatus,
  datasetSnapshots,
  lyrics,
  songwriters,
  trackCredits,
  trackFeatures,
  tracks,
  trainingJobs,
} from '../../src/infra/db/schema/index.js';
import type { TrainingHyperparams } from '../../src/engine/engine.js';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { computeEligibility, type DatasetSettings } from '../../src/station/dataset/eligibility.js';
import { loadSnapshotDataset } from '../../src/station/dataset/snapshot-dataset.js';
import { loadLyricRows } from '../../src/station/dataset/training-data.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { authHeaders, stationForSuite, signupListener, staffLogin } from '../helpers/station.js';

type Json = Record<string, any>;
type Headers = Record<string, string>;

const DEFAULT_CONFIG = {
  training_sources: { audio: 'platform_owned_masters_only', lyrics: 'platform_songwriters_only', sonic_capsules: false },
  artist_filter: { mode: 'all', artist_ids: [] },
  era_filter: { include_years: [] },
  quality_gate: { min_audio_bitrate: 128, require_isrc: false, require_credits: false },
};

/** Distinct, deterministic style features: index i and j are far apart unless i === j. */
function fakeFeatures(i: number): AudioFeatures {
  return {
    durationSec: 120,
    tempoBpm: 70 + (i % 40) * 3,
    tempoConfidence: 0.8,
    key: 'C',
    mode: i % 2 ? 'minor' : 'major',
    keyConfidence: 0.7,
    chroma: Array.from({ length: 12 }, (_, k) => (k === i % 12 ? 0.45 : 0.05)),
    mfccMean: Array.from({ length: 13 }, (_, k) => i * 5 + k),
    mfccStd: Array.from({ length: 13 }, () => 1 + i * 0.5),
    loudnessDb: -14,
    energy: 0.5,
    spectralCentroidHz: 1500 + i * 100,
    onsetRate: 2,
    beatChords: ['C', 'G', 'Am', 'F'],
  };
}

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const sorted = (ids: string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

async function sineMp3(seconds = 1): Promise<Buffer> {
  const stream = await createMp3Stream('128kbps');
  const n = 44100 * seconds;
  const left = Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 44100));
  return Buffer.concat([Buffer.from(stream.write(left, left)), Buffer.from(stream.finish())]);
}

describe('module B: dataset manager', () => {
  let db: Db;
  let admin: Headers;
  let adminId: string;
  let listener: Headers;
  let demoTrackIds: string[];
  let demoLyricIds: string[];
  /** Third-party rows added by the test. */
  const outside = { artistId: '', trackIds: [] as string[], lyricId: '', songwriterId: '', platformLyricByOutsideWriter: '' };
  let platformArtist: { id: string; name: string };

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Headers = admin) =>
    station.http.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const stats = async () => (await call('GET', '/station/v1/dataset/stats')).json() as Json;
  const configBody = async () => {
    const body = (await call('GET', '/station/v1/dataset/config')).json() as Json;
    return { ...body, updated_at: undefined, updated_by: undefined };
  };
  const patchConfig = (payload: unknown) => call('PATCH', '/station/v1/dataset/config', payload);
  const resetConfig = async () => {
    expect((await patchConfig(DEFAULT_CONFIG)).statusCode).toBe(200);
    await db.delete(datasetArtistStatus);
  };

  const station = stationForSuite();
  beforeAll(async () => {
    db = station.database.db;
    const login = await staffLogin(station);
    admin = authHeaders(login);
    adminId = login.userId;
    listener = authHeaders(await signupListener(station));
    await seedDemoCatalog(db);

    // Every demo track gets a master record and style features (no rendering needed outside validate).
    const demo = await db.select({ id: tracks.id }).from(tracks).orderBy(tracks.id);
    demoTrackIds = demo.map((t) => t.id);
    for (const [i, { id }] of demo.entries()) {
      await db
        .update(tracks)
        .set({ audioBlobKey: `catalog/${id}.mp3`, audioFormat: 'mp3', audioBitrateKbps: 192, durationSec: 120 })
        .where(eq(tracks.id, id));
      await db.insert(trackFeatures).values({ trackId: id, extractorVersion: 'test', features: fakeFeatures(i) });
    }
    demoLyricIds = (await db.select({ id: lyrics.id }).from(lyrics)).map((l) => l.id);
    const [first] = await db.select({ id: artists.id, name: artists.name }).from(artists).orderBy(artists.slug).limit(1);
    platformArtist = first;

    // A third-party label: an artist, two masters with features, a songwriter and a lyric.
    const [artist] = await db
      .insert(artists)
      .values({ slug: 'outside-label-band', name: 'Outside Label Band', genre: 'pop', platformOwned: false })
      .returning();
    outside.artistId = artist.id;
    const [writer] = await db.insert(songwriters).values({ slug: 'outside-writer', name: 'Outside Writer', platformOwned: false }).returning();
    outside.songwriterId = writer.id;
    for (const n of [1, 2]) {
      const [track] = await db
        .insert(tracks)
        .values({
          slug: `outside-hit-${n}`,
          title: `Outside Hit ${n}`,
          artistId: artist.id,
          genre: 'pop',
          durationSec: 200,
          isrc: `USXYZ240000${n}`,
          releaseYear: 2020,
          audioBlobKey: `catalog/outside-${n}.mp3`,
          audioFormat: 'mp3',
          audioBitrateKbps: 320,
        })
        .returning();
      outside.trackIds.push(track.id);
      await db.insert(trackFeatures).values({ trackId: track.id, extractorVersion: 'test', features: fakeFeatures(100 + n) });
    }
    const [lyric] = await db
      .insert(lyrics)
      .values({
        slug: 'outside-lyric',
        artistId: artist.id,
        songwriterId: writer.id,
        title: 'Outside Lyric',
        language: 'en',
        sections: [{ name: 'verse', lines: ['la la'] }],
      })
      .returning();
    outside.lyricId = lyric.id;
    // A platform artist's lyric written by the outside songwriter: never eligible either.
    const [mixed] = await db
      .insert(lyrics)
      .values({
        slug: 'borrowed-words',
        artistId: platformArtist.id,
        songwriterId: writer.id,
        title: 'Borrowed Words',
        language: 'en',
        sections: [{ name: 'verse', lines: ['not ours'] }],
      })
      .returning();
    outside.platformLyricByOutsideWriter = mixed.id;
  }, 120_000);

  it('needs station:train and the CSRF header', async () => {
    expect((await call('GET', '/station/v1/dataset/config', undefined, {})).statusCode).toBe(401);
    const forbidden = await call('GET', '/station/v1/dataset/stats', undefined, listener);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
    const noCsrf = await call('PATCH', '/station/v1/dataset/config', { era_filter: { include_years: [2020] } }, { authorization: admin.authorization });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('STATION_CSRF_INVALID');
    expect((await call('POST', '/station/v1/dataset/validate', {}, listener)).statusCode).toBe(403);
  });

  it('serves the default configuration with the fixed training sources', async () => {
    const response = await call('GET', '/station/v1/dataset/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ...DEFAULT_CONFIG, applies_to: 'next_training_run' });
  });

  it('refuses any change of the training sources or a non-platform whitelist with 400 STATION_DATASET_VIOLATION, changing nothing', async () => {
    const before = await configBody();
    const attempts = [
      { training_sources: { audio: 'any_audio' } },
      { training_sources: { lyrics: 'all_lyrics' }, quality_gate: { require_isrc: true } },
      { training_sources: { audio: 'platform_owned_masters_only', lyrics: 'web_scrape', sonic_capsules: true } },
      { artist_filter: { mode: 'whitelist', artist_ids: [platformArtist.id, outside.artistId] }, era_filter: { include_years: [2020] } },
      { artist_filter: { mode: 'whitelist', artist_ids: ['00000000-0000-4000-8000-000000000000'] } },
      { artist_filter: { mode: 'whitelist', artist_ids: ['not-an-id'] } },
    ];
    for (const payload of attempts) {
      const response = await patchConfig(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('STATION_DATASET_VIOLATION');
    }
    // A per-artist PATCH including the third-party artist is a violation as well.
    const include = await call('PATCH', `/station/v1/dataset/artists/${outside.artistId}`, { status: 'included', reason: 'we like them' });
    expect(include.statusCode).toBe(400);
    expect(include.json().error.code).toBe('STATION_DATASET_VIOLATION');
    expect(await configBody()).toEqual(before);
    expect(await db.select().from(datasetArtistStatus)).toHaveLength(0);
    expect(await db.select().from(datasetArtistAudit)).toHaveLength(0);

    // Repeating the constants is fine; a blacklist may name the third-party artist; unknown ids are a plain 400.
    expect((await patchConfig({ training_sources: { audio: 'platform_owned_masters_only', lyrics: 'platform_songwriters_only' } })).statusCode).toBe(200);
    expect((await patchConfig({ artist_filter: { mode: 'blacklist', artist_ids: ['00000000-0000-4000-8000-000000000000'] } })).json().error.code).toBe(
      'STATION_VALIDATION_FAILED',
    );
    expect((await patchConfig({ unknown_field: 1 })).statusCode).toBe(400);
    const blacklist = await patchConfig({ artist_filter: { mode: 'blacklist', artist_ids: [outside.artistId] } });
    expect(blacklist.statusCode).toBe(200);
    await resetConfig();
  });

  it('applies a partial update field by field and records who made it', async () => {
    const response = await patchConfig({ training_sources: { sonic_capsules: true }, era_filter: { include_years: [2021, 2019, 2021] } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      training_sources: { ...DEFAULT_CONFIG.training_sources, sonic_capsules: true },
      era_filter: { include_years: [2019, 2021] },
      quality_gate: DEFAULT_CONFIG.quality_gate,
      artist_filter: DEFAULT_CONFIG.artist_filter,
      updated_by: adminId,
    });
    await resetConfig();
  });

  it('computes the statistics from the catalog: only platform-owned masters and platform songwriters’ lyrics', async () => {
    const body = await stats();
    const demoYears = await db.select({ year: tracks.releaseYear }).from(tracks).where(inArray(tracks.id, demoTrackIds));
    const era: Record<string, number> = {};
    for (const { year } of demoYears) era[String(year)] = (era[String(year)] ?? 0) + 1;
    expect(body).toMatchObject({
      total_masters_eligible: demoTrackIds.length,
      total_lyric_files: demoLyricIds.length,
      total_hours_audio: Math.round(((demoTrackIds.length * 120) / 3600) * 1000) / 1000,
      era_breakdown: era,
      total_tracks: demoTrackIds.length + 2,
      total_lyrics: demoLyricIds.length + 2,
    });
    expect(body.excluded_masters.not_platform_owned).toBe(2);
    expect(body.excluded_lyrics.not_platform_owned).toBe(1);
    expect(body.excluded_lyrics.songwriter_not_platform).toBe(1);
  });

  it('applies the artist filter (whitelist, blacklist, all) to masters and lyrics', async () => {
    const artistTracks = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.artistId, platformArtist.id));
    const ownLyrics = (
      await db
        .select({ id: lyrics.id })
        .from(lyrics)
        .where(and(eq(lyrics.artistId, platformArtist.id), inArray(lyrics.id, demoLyricIds)))
    ).length;
    expect(artistTracks.length).toBeGreaterThan(0);

    await patchConfig({ artist_filter: { mode: 'whitelist', artist_ids: [platformArtist.id] } });
    let body = await stats();
    expect(body.total_masters_eligible).toBe(artistTracks.length);
    expect(body.total_lyric_files).toBe(ownLyrics);
    expect(body.excluded_masters.artist_excluded).toBe(demoTrackIds.length - artistTracks.length);

    await patchConfig({ artist_filter: { mode: 'blacklist' } });
    body = await stats();
    expect(body.total_masters_eligible).toBe(demoTrackIds.length - artistTracks.length);
    expect(body.total_lyric_files).toBe(demoLyricIds.length - ownLyrics);

    await patchConfig({ artist_filter: { mode: 'all' } });
    expect((await stats()).total_masters_eligible).toBe(demoTrackIds.length);
    await resetConfig();
  });

  it('applies the era filter and each quality gate', async () => {
    const [{ year }] = await db.select({ year: tracks.releaseYear }).from(tracks).where(eq(tracks.id, demoTrackIds[0]));
    const sameYear = (
      await db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.releaseYear, year!), inArray(tracks.id, demoTrackIds)))
    ).length;
    await patchConfig({ era_filter: { include_years: [year!] } });
    let body = await stats();
    expect(body.total_masters_eligible).toBe(sameYear);
    expect(body.era_breakdown).toEqual({ [String(year)]: sameYear });
    expect(body.excluded_masters.era).toBe(demoTrackIds.length - sameYear);
    await resetConfig();

    // Bitrate: one master at 320 kbps, the rest at 192.
    await db.update(tracks).set({ audioBitrateKbps: 320 }).where(eq(tracks.id, demoTrackIds[1]));
    await patchConfig({ quality_gate: { min_audio_bitrate: 256 } });
    body = await stats();
    expect(body.total_masters_eligible).toBe(1);
    expect(body.excluded_masters.bitrate).toBe(demoTrackIds.length - 1);
    await resetConfig();
    await db.update(tracks).set({ audioBitrateKbps: 192 }).where(eq(tracks.id, demoTrackIds[1]));

    // ISRC: one master without a code.
    const [{ isrc }] = await db.select({ isrc: tracks.isrc }).from(tracks).where(eq(tracks.id, demoTrackIds[2]));
    await db.update(tracks).set({ isrc: null }).where(eq(tracks.id, demoTrackIds[2]));
    expect((await stats()).total_masters_eligible).toBe(demoTrackIds.length);
    await patchConfig({ quality_gate: { require_isrc: true } });
    body = await stats();
    expect(body.total_masters_eligible).toBe(demoTrackIds.length - 1);
    expect(body.excluded_masters.isrc).toBe(1);
    await resetConfig();
    await db.update(tracks).set({ isrc }).where(eq(tracks.id, demoTrackIds[2]));

    // Credits: one master without any songwriter credit.
    const credits = await db.select().from(trackCredits).where(eq(trackCredits.trackId, demoTrackIds[3]));
    await db.delete(trackCredits).where(eq(trackCredits.trackId, demoTrackIds[3]));
    await patchConfig({ quality_gate: { require_credits: true } });
    body = await stats();
    expect(body.total_masters_eligible).toBe(demoTrackIds.length - 1);
    expect(body.excluded_masters.credits).toBe(1);
    await resetConfig();
    await db.insert(trackCredits).values(credits);

    // No features: never eligible, whatever the configuration.
    const [features] = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, demoTrackIds[4]));
    await db.delete(trackFeatures).where(eq(trackFeatures.trackId, demoTrackIds[4]));
    body = await stats();
    expect(body.total_masters_eligible).toBe(demoTrackIds.length - 1);
    expect(body.excluded_masters.no_features).toBe(1);
    await db.insert(trackFeatures).values(features);
    expect((await stats()).total_masters_eligible).toBe(demoTrackIds.length);
  });

  it('lists artists by status with pagination; third-party artists are always excluded', async () => {
    const all = await db.select({ id: artists.id }).from(artists);
    const included = (await call('GET', '/station/v1/dataset/artists?status=included&limit=100')).json();
    const excluded = (await call('GET', '/station/v1/dataset/artists?status=excluded&limit=100')).json();
    expect(included.total + excluded.total).toBe(all.length);
    expect(excluded.data).toEqual([
      expect.objectContaining({
        artist_id: outside.artistId,
        platform_owned: false,
        status: 'excluded',
        status_reason: 'not platform-owned',
        tracks: 2,
        lyrics: 1,
        eligible_masters: 0,
      }),
    ]);
    const entry = included.data.find((a: Json) => a.artist_id === platformArtist.id);
    const ownTracks = (await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.artistId, platformArtist.id))).length;
    expect(entry).toMatchObject({ status: 'included', status_source: 'default', tracks: ownTracks, eligible_masters: ownTracks, last_change: null });
    expect(entry.lyrics).toBe(entry.eligible_lyrics + 1); // the borrowed lyric is not eligible

    const page1 = (await call('GET', '/station/v1/dataset/artists?limit=2&page=1')).json();
    const page2 = (await call('GET', '/station/v1/dataset/artists?limit=2&page=2')).json();
    expect(page1).toMatchObject({ total: all.length, page: 1, limit: 2 });
    expect(page1.data).toHaveLength(2);
    expect(page2.data[0].artist_id).not.toBe(page1.data[0].artist_id);
    expect((await call('GET', '/station/v1/dataset/artists?status=maybe')).statusCode).toBe(400);

    // The whitelist moves everyone else to excluded.
    await patchConfig({ artist_filter: { mode: 'whitelist', artist_ids: [platformArtist.id] } });
    const whitelisted = (await call('GET', '/station/v1/dataset/artists?status=included')).json();
    expect(whitelisted.data.map((a: Json) => a.artist_id)).toEqual([platformArtist.id]);
    await resetConfig();
  });

  it('changes an artist status with a reason, keeps an audit trail and shows the last change', async () => {
    const before = await stats();
    const response = await call('PATCH', `/station/v1/dataset/artists/${platformArtist.id}`, { status: 'excluded', reason: 'rights review pending' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      artist_id: platformArtist.id,
      status: 'excluded',
      status_source: 'artist_status',
      status_reason: 'rights review pending',
      eligible_masters: 0,
      last_change: { old_status: 'included', new_status: 'excluded', reason: 'rights review pending', changed_by: adminId },
    });
    const after = await stats();
    expect(after.total_masters_eligible).toBeLessThan(before.total_masters_eligible);
    expect(after.total_lyric_files).toBeLessThan(before.total_lyric_files);
    const excluded = (await call('GET', '/station/v1/dataset/artists?status=excluded')).json();
    expect(excluded.data.map((a: Json) => a.artist_id)).toContain(platformArtist.id);

    // An explicit "included" overrides a blacklist.
    await patchConfig({ artist_filter: { mode: 'blacklist', artist_ids: [platformArtist.id] } });
    const back = await call('PATCH', `/station/v1/dataset/artists/${platformArtist.id}`, { status: 'included', reason: 'cleared by legal' });
    expect(back.json()).toMatchObject({ status: 'included', last_change: { old_status: 'excluded', new_status: 'included', reason: 'cleared by legal' } });
    expect((await stats()).total_masters_eligible).toBe(before.total_masters_eligible);

    const trail = await db.select().from(datasetArtistAudit).where(eq(datasetArtistAudit.artistId, platformArtist.id)).orderBy(datasetArtistAudit.id);
    expect(trail.map((r) => [r.oldStatus, r.newStatus, r.reason, r.changedBy])).toEqual([
      ['included', 'excluded', 'rights review pending', adminId],
      ['excluded', 'included', 'cleared by legal', adminId],
    ]);
    // The trail is append-only, enforced by the database.
    await expect(db.delete(datasetArtistAudit).where(eq(datasetArtistAudit.artistId, platformArtist.id))).rejects.toThrow();

    // Excluding a third-party artist is allowed (and audited); 404 for an unknown artist; a reason is required.
    expect((await call('PATCH', `/station/v1/dataset/artists/${outside.artistId}`, { status: 'excluded', reason: 'label deal ended' })).statusCode).toBe(200);
    const unknown = await call('PATCH', '/station/v1/dataset/artists/00000000-0000-4000-8000-000000000000', { status: 'excluded', reason: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('STATION_NOT_FOUND');
    expect((await call('PATCH', '/station/v1/dataset/artists/nope', { status: 'excluded', reason: 'x' })).statusCode).toBe(404);
    expect((await call('PATCH', `/station/v1/dataset/artists/${platformArtist.id}`, { status: 'excluded', reason: '' })).statusCode).toBe(400);
    expect((await call('PATCH', `/station/v1/dataset/artists/${platformArtist.id}`, { status: 'excluded', reason: 'x'.repeat(501) })).statusCode).toBe(400);
    await resetConfig();
  });

  describe('snapshots', () => {
    /** The hash as a third party would compute it from the catalog, without the module's code. */
    async function expectedHash(config: Json, audioIds: string[], lyricIds: string[]) {
      const features = new Map((await db.select().from(trackFeatures).where(inArray(trackFeatures.trackId, audioIds))).map((r) => [r.trackId, r.features]));
      const docs = new Map((await loadLyricRows(new CatalogTrackReads(db), lyricIds)).map((r) => [r.lyricId, r.document]));
      return sha(
        canonicalJson({
          config,
          audio_track_ids: sorted(audioIds),
          lyric_ids: sorted(lyricIds),
          items: {
            audio: sorted(audioIds).map((id) => ({ id, features_sha256: sha(canonicalJson(features.get(id))) })),
            lyrics: sorted(lyricIds).map((id) => ({ id, content_sha256: sha(canonicalJson(docs.get(id))) })),
          },
        }),
      );
    }

    it('freezes the configuration and the exact eligible items under a reproducible hash', async () => {
      await patchConfig({ era_filter: { include_years: [2019, 2020] }, quality_gate: { require_isrc: true } });
      const first = await call('POST', '/station/v1/dataset/snapshot', { name: 'spring set', description: 'first cut' });
      expect(first.statusCode).toBe(201);
      const snap = first.json();
      expect(snap.dataset_hash).toMatch(/^sha256:[0-9a-f]{64}$/);

      const eligibleYears = await db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(inArray(tracks.id, demoTrackIds), inArray(tracks.releaseYear, [2019, 2020])));
      const detail = (await call('GET', `/station/v1/dataset/snapshots/${snap.snapshot_id}`)).json();
      expect(detail.audio_track_ids).toEqual(sorted(eligibleYears.map((t) => t.id)));
      expect(snap.item_counts).toEqual({ audio: eligibleYears.length, lyrics: detail.lyric_ids.length });
      expect(detail.lyric_ids).not.toContain(outside.lyricId);
      expect(detail.lyric_ids).not.toContain(outside.platformLyricByOutsideWriter);
      expect(snap.config).toMatchObject({
        training_sources: DEFAULT_CONFIG.training_sources,
        era_filter: { include_years: [2019, 2020] },
        quality_gate: { require_isrc: true },
        artist_statuses: expect.any(Array),
      });
      expect(snap.dataset_hash).toBe(await expectedHash(snap.config, detail.audio_track_ids, detail.lyric_ids));

      // Same data, same hash (name and time do not count); a changed item or configuration changes it.
      const again = (await call('POST', '/station/v1/dataset/snapshot', { name: 'spring set, again' })).json();
      expect(again.dataset_hash).toBe(snap.dataset_hash);
      expect(again.snapshot_id).not.toBe(snap.snapshot_id);

      const target = detail.audio_track_ids[0];
      const [original] = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, target));
      await db
        .update(trackFeatures)
        .set({ features: { ...(original.features as AudioFeatures), energy: 0.51 } })
        .where(eq(trackFeatures.trackId, target));
      const changed = (await call('POST', '/station/v1/dataset/snapshot', { name: 'changed master' })).json();
      expect(changed.dataset_hash).not.toBe(snap.dataset_hash);
      await db.update(trackFeatures).set({ features: original.features }).where(eq(trackFeatures.trackId, target));

      const lyricId = detail.lyric_ids[0];
      const [lyric] = await db.select().from(lyrics).where(eq(lyrics.id, lyricId));
      await db
        .update(lyrics)
        .set({ title: `${lyric.title}!` })
        .where(eq(lyrics.id, lyricId));
      expect((await call('POST', '/station/v1/dataset/snapshot', { name: 'changed lyric' })).json().dataset_hash).not.toBe(snap.dataset_hash);
      await db.update(lyrics).set({ title: lyric.title }).where(eq(lyrics.id, lyricId));

      await patchConfig({ training_sources: { sonic_capsules: true } });
      expect((await call('POST', '/station/v1/dataset/snapshot', { name: 'capsules' })).json().dataset_hash).not.toBe(snap.dataset_hash);
      await resetConfig();
      await patchConfig({ era_filter: { include_years: [2020, 2019] }, quality_gate: { require_isrc: true } });
      expect((await call('POST', '/station/v1/dataset/snapshot', { name: 'restored' })).json().dataset_hash).toBe(snap.dataset_hash);
      await resetConfig();

      expect((await call('POST', '/station/v1/dataset/snapshot', { name: '' })).statusCode).toBe(400);
      expect((await call('POST', '/station/v1/dataset/snapshot', { name: 'x'.repeat(121) })).statusCode).toBe(400);
      expect((await call('POST', '/station/v1/dataset/snapshot', { name: 'x', description: 'd'.repeat(1001) })).statusCode).toBe(400);
    });

    it('lists snapshots newest first, paginated, with the training runs that used each', async () => {
      const list = (await call('GET', '/station/v1/dataset/snapshots?limit=2')).json();
      const total = (await db.select().from(datasetSnapshots)).length;
      expect(list).toMatchObject({ total, page: 1, limit: 2 });
      expect(list.data).toHaveLength(2);
      expect(Date.parse(list.data[0].created_at)).toBeGreaterThanOrEqual(Date.parse(list.data[1].created_at));
      const snap = list.data[0];
      expect(snap).toMatchObject({ dataset_hash: expect.stringMatching(/^sha256:/), item_counts: expect.any(Object), training_runs: [] });

      const [job] = await db
        .insert(trainingJobs)
        .values({
          modelType: 'lyrics',
          status: 'completed',
          snapshotId: snap.snapshot_id,
          datasetHash: snap.dataset_hash,
          hyperparams: { epochs: 1 } as TrainingHyperparams, // a partial row: only the snapshot link is read
          seed: 1,
          totalEpochs: 1,
        })
        .returning();
      const withRun = (await call('GET', '/station/v1/dataset/snapshots?limit=2')).json();
      expect(withRun.data[0].training_runs).toEqual([{ job_id: job.id, model_type: 'lyrics', status: 'completed' }]);
      expect(withRun.data[1].training_runs).toEqual([]);
      await db.delete(trainingJobs).where(eq(trainingJobs.id, job.id));
      expect((await call('GET', '/station/v1/dataset/snapshots/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    });

    it('hands module C exactly the snapshot items (404 unknown, 409 when an item went away)', async () => {
      const snap = (await call('POST', '/station/v1/dataset/snapshot', { name: 'for training' })).json();
      const audio = await loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, snap.snapshot_id, 'audio');
      expect(audio.items).toBe(snap.item_counts.audio);
      expect(audio.snapshot.id).toBe(snap.snapshot_id);
      expect(audio.datasetHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      const published = JSON.parse((await station.blobs.get(audio.ref.blobKey)).toString()) as { id: string }[];
      expect(published.map((i) => i.id)).toEqual(
        snap.item_counts.audio > 0 ? (await call('GET', `/station/v1/dataset/snapshots/${snap.snapshot_id}`)).json().audio_track_ids : [],
      );
      const lyricSet = await loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, snap.snapshot_id, 'lyrics');
      expect(lyricSet.items).toBe(snap.item_counts.lyrics);
      // Same snapshot, same artifact.
      expect((await loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, snap.snapshot_id, 'audio')).datasetHash).toBe(audio.datasetHash);

      await expect(loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, '00000000-0000-4000-8000-000000000000', 'audio')).rejects.toMatchObject({
        kind: 'not_found',
      });
      await expect(loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, 'nope', 'lyrics')).rejects.toBeInstanceOf(DomainError);

      const [features] = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, published[0].id));
      await db.delete(trackFeatures).where(eq(trackFeatures.trackId, published[0].id));
      await expect(loadSnapshotDataset(db, new CatalogTrackReads(db), station.blobs, snap.snapshot_id, 'audio')).rejects.toMatchObject({ kind: 'conflict' });
      await db.insert(trackFeatures).values(features);
    });
  });

  describe('validate', () => {
    let masters: string[];

    beforeAll(async () => {
      // Only one artist's masters are in the set; each gets a real, decodable MP3.
      await patchConfig({ artist_filter: { mode: 'whitelist', artist_ids: [platformArtist.id] } });
      masters = (
        await call('GET', `/station/v1/dataset/snapshots/${(await call('POST', '/station/v1/dataset/snapshot', { name: 'validate' })).json().snapshot_id}`)
      ).json().audio_track_ids;
      const mp3 = await sineMp3(1);
      for (const id of masters) await station.blobs.put(`catalog/${id}.mp3`, mp3);
    });
    afterAll(() => resetConfig());

    const validate = async (payload: unknown = {}) => {
      const response = await call('POST', '/station/v1/dataset/validate', payload);
      expect(response.statusCode).toBe(200);
      return response.json() as Json;
    };

    it('passes a clean set', async () => {
      const report = await validate();
      expect(report.problems).toEqual([]);
      expect(report).toMatchObject({ valid: true, scope: { kind: 'current', snapshot_id: null }, checked: { masters: masters.length } });
      expect(report.checked.lyrics).toBeGreaterThan(0);
      // An empty body is accepted too.
      const empty = await station.http.inject({ method: 'POST', url: '/station/v1/dataset/validate', headers: admin });
      expect(empty.json(), empty.body).toMatchObject({ valid: true });
    });

    it('finds a missing master, an undecodable master and a near-duplicate of third-party audio', async () => {
      const [missing, broken, copy] = masters;
      await station.blobs.delete(`catalog/${missing}.mp3`);
      await station.blobs.put(`catalog/${broken}.mp3`, Buffer.from('this is not audio at all, just some text pretending to be an MP3'));
      const [own] = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, copy));
      const [theirs] = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, outside.trackIds[0]));
      await db
        .update(trackFeatures)
        .set({ features: { ...(own.features as AudioFeatures), tempoBpm: (own.features as AudioFeatures).tempoBpm + 0.5 } })
        .where(eq(trackFeatures.trackId, outside.trackIds[0]));

      const report = await validate();
      expect(report.valid).toBe(false);
      const problems = report.problems.map((p: Json) => [p.item_type, p.item_id, p.problem]);
      expect(problems).toEqual(
        expect.arrayContaining([
          ['track', missing, 'master_missing'],
          ['track', broken, 'master_undecodable'],
          ['track', copy, 'near_duplicate_of_non_platform_audio'],
        ]),
      );
      expect(report.problems).toHaveLength(3);
      // Coarse reasons in our own words: no storage keys, no decoder text.
      for (const problem of report.problems as Json[]) expect(problem.detail).not.toMatch(/catalog\/|Error|frame|sync/i);
      const dup = report.problems.find((p: Json) => p.problem === 'near_duplicate_of_non_platform_audio');
      expect(dup.detail).toContain(outside.trackIds[0]);
      expect(dup.title).toEqual(expect.any(String));

      await db.update(trackFeatures).set({ features: theirs.features }).where(eq(trackFeatures.trackId, outside.trackIds[0]));
      const mp3 = await sineMp3(1);
      await station.blobs.put(`catalog/${missing}.mp3`, mp3);
      await station.blobs.put(`catalog/${broken}.mp3`, mp3);
      expect((await validate()).valid).toBe(true);
    });

    it('finds lyric attributions that are not backed by a platform songwriter credit', async () => {
      // A lyric of the set whose songwriter holds no lyricist credit on its track.
      const current = await validate();
      const [lyric] = await db
        .select()
        .from(lyrics)
        .where(and(eq(lyrics.artistId, platformArtist.id), sql`${lyrics.trackId} IS NOT NULL`))
        .limit(1);
      const credits = await db.select().from(trackCredits).where(eq(trackCredits.trackId, lyric.trackId!));
      // The songwriter's credits go; the track's splits must still sum to 100 at commit (a deferred trigger
      // insists), so another songwriter takes their share: one already credited, or another platform writer.
      const share = credits.filter((c) => c.songwriterId === lyric.songwriterId).reduce((sum, c) => sum + c.splitPct, 0);
      const heir = credits.find((c) => c.songwriterId !== lyric.songwriterId);
      await db.transaction(async (tx) => {
        await tx.delete(trackCredits).where(and(eq(trackCredits.trackId, lyric.trackId!), eq(trackCredits.songwriterId, lyric.songwriterId)));
        if (heir) {
          await tx
            .update(trackCredits)
            .set({ splitPct: heir.splitPct + share })
            .where(and(eq(trackCredits.trackId, heir.trackId), eq(trackCredits.songwriterId, heir.songwriterId), eq(trackCredits.role, heir.role)));
        } else {
          const [other] = await tx
            .select()
            .from(songwriters)
            .where(and(eq(songwriters.platformOwned, true), sql`${songwriters.id} <> ${lyric.songwriterId}`))
            .limit(1);
          await tx.insert(trackCredits).values({ trackId: lyric.trackId!, songwriterId: other.id, role: 'composer', splitPct: 100 });
        }
      });
      const report = await validate();
      expect(report.problems).toEqual([
        expect.objectContaining({ item_type: 'lyric', item_id: lyric.id, title: lyric.title, problem: 'lyric_credit_not_on_track' }),
      ]);
      await db.delete(trackCredits).where(eq(trackCredits.trackId, lyric.trackId!));
      await db.insert(trackCredits).values(credits);
      expect(current.valid).toBe(true);

      // A snapshot whose lyric's songwriter is no longer the platform's; an artist that left the platform.
      const snap = (await call('POST', '/station/v1/dataset/snapshot', { name: 'before the writer left' })).json();
      await db.update(songwriters).set({ platformOwned: false }).where(eq(songwriters.id, lyric.songwriterId));
      const snapReport = await validate({ snapshot_id: snap.snapshot_id });
      expect(snapReport.scope).toEqual({ kind: 'snapshot', snapshot_id: snap.snapshot_id });
      expect(snapReport.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ item_type: 'lyric', item_id: lyric.id, problem: 'lyric_without_platform_credit' })]),
      );
      // The current set already leaves that writer's lyrics out.
      expect((await validate()).problems.filter((p: Json) => p.item_type === 'lyric')).toEqual([]);
      await db.update(songwriters).set({ platformOwned: true }).where(eq(songwriters.id, lyric.songwriterId));

      await db.update(artists).set({ platformOwned: false }).where(eq(artists.id, platformArtist.id));
      const left = await validate();
      expect(left.problems).toEqual([expect.objectContaining({ item_type: 'artist', item_id: platformArtist.id, problem: 'non_platform_artist' })]);
      expect(left.checked.masters).toBe(0);
      const leftSnapshot = await validate({ snapshot_id: snap.snapshot_id });
      expect(leftSnapshot.problems.filter((p: Json) => p.problem === 'non_platform_artist').length).toBe(1 + snap.item_counts.audio + snap.item_counts.lyrics);
      await db.update(artists).set({ platformOwned: true }).where(eq(artists.id, platformArtist.id));

      expect((await call('POST', '/station/v1/dataset/validate', { snapshot_id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    });
  });

  it('keeps the eligibility rules pure: ownership beats any override', () => {
    const settings: DatasetSettings = {
      sonicCapsules: false,
      artistFilterMode: 'whitelist',
      artistIds: ['a1', 'x1'],
      includeYears: [],
      minAudioBitrateKbps: 0,
      requireIsrc: false,
      requireCredits: false,
    };
    const track = (id: string, artistId: string) => ({
      id,
      title: id,
      artistId,
      status: 'published' as const,
      releaseYear: 2020,
      isrc: null,
      audioBitrateKbps: 128,
      audioBlobKey: `k/${id}`,
      audioFormat: 'mp3',
      durationSec: 60,
      hasFeatures: true,
      creditCount: 0,
    });
    const result = computeEligibility(settings, [{ artistId: 'x1', status: 'included', reason: 'sneaky' }], {
      artists: [
        { id: 'a1', slug: 'a', name: 'A', platformOwned: true },
        { id: 'a2', slug: 'b', name: 'B', platformOwned: true },
        { id: 'x1', slug: 'x', name: 'X', platformOwned: false },
      ],
      tracks: [track('t2', 'a2'), track('t1', 'a1'), track('t3', 'x1')],
      lyrics: [],
    });
    expect(result.audioTrackIds).toEqual(['t1']);
    expect(result.trackExclusions.get('t2')).toEqual(['artist_excluded']);
    expect(result.trackExclusions.get('t3')).toEqual(['not_platform_owned']);
    expect(result.artists.get('x1')).toMatchObject({ status: 'excluded', source: 'platform_ownership' });
  });
});
