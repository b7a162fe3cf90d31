/**
 * What the playout knows of a track before it airs, and how it uses it: true peak, loudness, sound edges
 * and quiet intro/outro from one decoding pass; the crossfade plan those shape; the on-air gain; and the
 * cache of analyses in the database (measured once per master, shared by every instance).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoudnessMeter } from '../../src/engine/audio/loudness.js';
import { analyseTrack } from '../../src/engine/audio/track-analysis.js';
import { TruePeakMeter } from '../../src/engine/audio/true-peak.js';
import { encodeWav } from '../../src/engine/audio/encode.js';
import { FileBlobStore } from '../../src/infra/blobs/blob-store.js';
import type { Database } from '../../src/infra/db/client.js';
import { artists, playoutAnalyses, radioSlots, tracks } from '../../src/infra/db/schema/index.js';
import { UrlSigner } from '../../src/infra/blobs/url-signer.js';
import { systemClock } from '../../src/infra/clock/clock.js';
import type { StationConfigRow } from '../../src/station/admin/config.repository.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { CardBuilder } from '../../src/station/scheduler/cards.js';
import { SlotsRepository } from '../../src/station/scheduler/slots.repository.js';
import { streamSource } from '../../src/station/scheduler/stream-source.js';
import { PlayoutAnalyses, analysisRowKey } from '../../src/station/stream/playout-analyses.js';
import { introLiftDb, normalisationGainDb, planCrossfade } from '../../src/station/stream/crossfade.js';
import { createTestDatabase, type TestDatabase } from '../helpers/station.js';
import { RATE, toneMaster, tonePcm } from './playout-support.js';

describe('TruePeakMeter', () => {
  it('finds the peak between samples that the samples themselves miss', () => {
    // A quarter-rate sine sampled 45 degrees off its peaks: every sample is at 0.707 of the true peak.
    const signal = Float32Array.from({ length: RATE }, (_, i) => 0.5 * Math.sin((Math.PI / 2) * i + Math.PI / 4));
    const meter = new TruePeakMeter(1);
    for (let at = 0; at < signal.length; at += 1000) meter.push([signal.subarray(at, at + 1000)], Math.min(1000, signal.length - at));
    expect(Math.max(...signal.map(Math.abs))).toBeCloseTo(0.3536, 3);
    expect(meter.dbtp!).toBeGreaterThan(20 * Math.log10(0.5) - 0.5);
    expect(meter.dbtp!).toBeLessThan(20 * Math.log10(0.5) + 0.2);
  });

  it('reads an ordinary tone at its amplitude, and silence as null', () => {
    const meter = new TruePeakMeter(2);
    const tone = tonePcm({ frequencyHz: 997, amplitude: 0.25, seconds: 1 });
    meter.push([tone, tone], tone.length);
    expect(Math.abs(meter.dbtp! - 20 * Math.log10(0.25))).toBeLessThan(0.05);
    const silent = new TruePeakMeter(1);
    silent.push([new Float32Array(4410)], 4410);
    expect(silent.dbtp).toBeNull();
  });
});

describe('analyseTrack', () => {
  it('measures loudness, true peak, where the sound starts and ends, and the quiet intro and outro', async () => {
    // 0.5 s silence, 1 s fade-in, 2 s steady, 2 s fade-out (fades linear in dB from -60), 0.3 s silence.
    const spec = { frequencyHz: 440, amplitude: 0.5, seconds: 5, fadeInSec: 1, fadeOutSec: 2, silenceBeforeSec: 0.5, silenceAfterSec: 0.3 };
    const pcm = tonePcm(spec);
    const analysis = await analyseTrack(encodeWav(pcm, pcm), 'wav');
    const meter = new LoudnessMeter(RATE, 2);
    meter.push([pcm, pcm], pcm.length);
    expect(Math.abs(analysis.loudnessLufs! - meter.integrated()!)).toBeLessThan(0.05);
    expect(Math.abs(analysis.truePeakDbtp! - 20 * Math.log10(0.5))).toBeLessThan(0.1);
    expect(analysis.durationSec).toBeCloseTo(5.8, 2);
    // Sound: from where the fade-in passes -60 dBFS (-54 dB under the tone, 0.1 s in) to where the fade-out does.
    expect(analysis.soundStartSec).toBeGreaterThan(0.55);
    expect(analysis.soundStartSec).toBeLessThan(0.65);
    expect(analysis.soundEndSec).toBeGreaterThan(5.25);
    expect(analysis.soundEndSec).toBeLessThan(5.35);
    // Quiet: more than 6 dB under its body, i.e. the fade-in up to 0.9 s (~0.8 s of it audible), the fade-out
    // from 1.8 s before its end (~1.6 s of it audible).
    expect(analysis.introSec).toBeGreaterThan(0.65);
    expect(analysis.introSec).toBeLessThan(0.95);
    expect(analysis.outroSec).toBeGreaterThan(1.4);
    expect(analysis.outroSec).toBeLessThan(1.8);
  });

  it('finds no quiet edges on a track that starts and stops at full level, and nothing at all in silence', async () => {
    const steady = await analyseTrack(await toneMaster({ frequencyHz: 330, amplitude: 0.3, seconds: 3 }), 'mp3');
    expect(steady.introSec).toBeLessThan(0.15);
    expect(steady.outroSec).toBeLessThan(0.15);
    const silence = await analyseTrack(encodeWav(new Float32Array(RATE), new Float32Array(RATE)), 'wav');
    expect(silence).toMatchObject({ loudnessLufs: null, truePeakDbtp: null, soundStartSec: 0, soundEndSec: 0 });
  });
});

describe('planCrossfade', () => {
  const loud = { lengthSec: 120, outroSec: 0, introSec: 0 };
  it('fades both ways over crossfade_sec between two loud edges', () => {
    expect(planCrossfade(loud, loud, 3)).toEqual({ overlapSec: 3, fadeOutSec: 3, fadeInSec: 3, trimSec: 0, shape: 'both' });
  });
  it('segues where a track that fades itself out falls under its body: the overlap stays crossfade_sec, the rest of its fade is cut', () => {
    // Before: the next track came in only under the quiet tail (1.5 s), after the whole fade had played.
    expect(planCrossfade({ ...loud, outroSec: 1.5 }, loud, 3)).toEqual({ overlapSec: 3, fadeOutSec: 3, fadeInSec: 3, trimSec: 0, shape: 'both' });
    expect(planCrossfade({ ...loud, outroSec: 10 }, loud, 3)).toEqual({ overlapSec: 3, fadeOutSec: 3, fadeInSec: 3, trimSec: 7, shape: 'both' });
    // At most a third of the track is cut.
    expect(planCrossfade({ lengthSec: 30, outroSec: 25 }, loud, 3).trimSec).toBe(10);
  });
  it("brings a track with a soft intro in without a fade of its own under the outgoing one's fade", () => {
    expect(planCrossfade(loud, { ...loud, introSec: 2 }, 3)).toEqual({ overlapSec: 3, fadeOutSec: 3, fadeInSec: 0, trimSec: 0, shape: 'incoming_quiet' });
    expect(planCrossfade({ ...loud, outroSec: 5 }, { ...loud, introSec: 2 }, 3)).toEqual({
      overlapSec: 3,
      fadeOutSec: 3,
      fadeInSec: 0,
      trimSec: 2,
      shape: 'incoming_quiet',
    });
  });
  it('keeps most of a short track, and splices at crossfade_sec 0', () => {
    expect(planCrossfade({ ...loud, lengthSec: 4 }, loud, 10).overlapSec).toBeCloseTo(4 / 3, 6);
    expect(planCrossfade(loud, loud, 0)).toEqual({ overlapSec: 0, fadeOutSec: 0, fadeInSec: 0, trimSec: 0, shape: 'splice' });
  });
});

describe('introLiftDb', () => {
  it('lifts a quiet intro up to the body, by 6 dB at most', () => {
    expect(introLiftDb(-14, -24)).toBe(6); // 10 dB under: capped
    expect(introLiftDb(-14, -18)).toBe(4);
    expect(introLiftDb(-14, -12)).toBe(0); // louder than the body: never cut
    expect(introLiftDb(-14, null)).toBe(0);
  });
});

describe('normalisationGainDb', () => {
  it('brings a track to the station level, boosting only as far as its true peak allows', () => {
    expect(normalisationGainDb(-9, -0.5, -14, -1)).toBe(-5); // a loud master is turned down
    expect(normalisationGainDb(-22, -10, -14, -1)).toBe(8); // a quiet one with headroom comes up all the way
    expect(normalisationGainDb(-22, -4, -14, -1)).toBe(3); // ...or until its peaks reach -1 dBTP
    expect(normalisationGainDb(-16, 0, -14, -1)).toBe(0); // no headroom: never boosted
    expect(normalisationGainDb(null, null, -14, -1)).toBe(0); // silence airs as it is
  });
});

describe('PlayoutAnalyses (the database cache)', () => {
  let testDb: TestDatabase;
  let database: Database;
  let dir: string;
  let blobs: FileBlobStore;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await testDb.open();
    await database.migrate();
    dir = mkdtempSync(join(tmpdir(), 'playout-analyses-'));
    blobs = new FileBlobStore(dir);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('measures a master once, for every caller and every instance, and fills in a catalog track loudness never measured', async () => {
    const master = await toneMaster({ frequencyHz: 330, amplitude: 0.1, seconds: 2 });
    await blobs.put('catalog/demo.mp3', master);
    const [artist] = await database.db.insert(artists).values({ slug: 'tone-artist', name: 'Tone Artist', genre: 'ambient' }).returning();
    const [track] = await database.db
      .insert(tracks)
      .values({ slug: 'tone', title: 'Tone', artistId: artist.id, genre: 'ambient', durationSec: 2, audioBlobKey: 'catalog/demo.mp3', audioFormat: 'mp3' })
      .returning();
    const one = new PlayoutAnalyses(database.db, blobs, new CatalogTrackReads(database.db));
    const [first, again] = await Promise.all([one.forBlob('catalog/demo.mp3'), one.forBlob('catalog/demo.mp3', master)]);
    expect(one.measured).toBe(1);
    expect(again).toEqual(first);
    // Another instance reads it from the database.
    const other = new PlayoutAnalyses(database.db, blobs, new CatalogTrackReads(database.db));
    const cached = await other.forBlob('catalog/demo.mp3');
    expect(other.measured).toBe(0);
    expect(cached.loudnessLufs).toBeCloseTo(first.loudnessLufs!, 4);
    expect(cached.soundEndSec).toBeCloseTo(first.soundEndSec, 4);
    const [row] = await database.db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(row.loudnessLufs).toBeCloseTo(first.loudnessLufs!, 4);
    // A file replaced under the same key (another size) is measured again.
    const louder = await toneMaster({ frequencyHz: 330, amplitude: 0.3, seconds: 3 });
    await blobs.put('catalog/demo.mp3', louder);
    const remeasured = await other.forBlob('catalog/demo.mp3');
    expect(other.measured).toBe(1);
    expect(remeasured.loudnessLufs!).toBeGreaterThan(first.loudnessLufs! + 8);
    const [stored] = await database.db
      .select()
      .from(playoutAnalyses)
      .where(eq(playoutAnalyses.blobKey, analysisRowKey('catalog/demo.mp3')));
    expect(stored.sizeBytes).toBe(louder.length);
  });

  it('reports the length of the master that aired: a placeholder render cued before its row was lengthened airs as itself', async () => {
    // The demo seeder renders short masters first and lengthens them later under new keys; a slot cued with
    // the short one aired 30 s while history said 150 s.
    const placeholder = await toneMaster({ frequencyHz: 440, amplitude: 0.2, seconds: 3 });
    await blobs.put('catalog/short.mp3', placeholder);
    const [artist] = await database.db.insert(artists).values({ slug: 'placeholder-artist', name: 'Placeholder', genre: 'jazz' }).returning();
    const [track] = await database.db
      .insert(tracks)
      .values({
        slug: 'placeholder',
        title: 'Placeholder',
        artistId: artist.id,
        genre: 'jazz',
        durationSec: 150,
        audioBlobKey: 'catalog/full.mp3',
        audioFormat: 'mp3',
      })
      .returning();
    const slots = new SlotsRepository(database.db);
    const slot = await slots.insert({ origin: 'catalog', trackId: track.id, sessionId: 'session-placeholder', durationSec: 150 });
    // Only the two fields streamSource reads; the rest of the station's config plays no part here.
    const config = { streamQuality: '128kbps', crossfadeSec: 3 } as StationConfigRow;
    const source = streamSource(
      { blobs, analyses: new PlayoutAnalyses(database.db, blobs, new CatalogTrackReads(database.db)), slots },
      slot,
      'catalog/short.mp3',
      'Placeholder',
      config,
    );
    const analysis = await source.analysis!(await source.read());
    const [row] = await database.db.select().from(radioSlots).where(eq(radioSlots.id, slot.id));
    expect(row.durationSec).toBeCloseTo(analysis.durationSec, 3);
    expect(row.durationSec!).toBeLessThan(4);
    // A catalog slot's card never asks the registry (AI tracks only).
    const cards = new CardBuilder(new CatalogTrackReads(database.db), null as never, new UrlSigner(Buffer.alloc(32, 1), 'http://station.test', systemClock));
    expect((await cards.forSlot(row))?.duration_sec).toBe(Math.round(analysis.durationSec));
  });
});
