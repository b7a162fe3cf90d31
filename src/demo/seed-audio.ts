/**
 * Step 2 of the demo seed: each catalog track's master, composed and rendered by the engine from the
 * track's own metadata (genre, mood, tempo, mode, energy), kept lossless (FLAC, `catalog/<id>.flac`, which the
 * radio airs) with its 128 kbps MP3 encoded once from it (`catalog/<id>.mp3`, the catalog's stream audio),
 * then its style features extracted and stored.
 * Nothing has been learned yet at this point, so the engine runs with an untrained (uniform) audio model.
 * Resumable: only tracks without a master are rendered.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import type { ArtifactRef, Engine } from '../engine/engine.js';
import { FEATURE_EXTRACTOR_VERSION } from '../engine/features/version.js';
import { emptyAudioModel, serialiseAudioModel } from '../engine/compose/audio-model.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import type { Db } from '../infra/db/client.js';
import { artists, trackFeatures, tracks } from '../infra/db/schema/index.js';
import type { MusicContext } from '../engine/types.js';
import { mirrorSandboxMedia } from './seed-sandbox.js';

/** The default stream quality, so the radio plays demo masters as they are, without a rendition. */
export const MASTER_QUALITY = '128kbps' as const;

async function untrainedAudioModel(blobs: BlobStore): Promise<ArtifactRef> {
  const bytes = Buffer.from(serialiseAudioModel(emptyAudioModel()));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const blobKey = `models/audio/untrained-${sha256.slice(0, 16)}.json`;
  if (!(await blobs.stat(blobKey))) await blobs.put(blobKey, bytes);
  return { version: 'untrained', sha256, blobKey };
}

function seedOf(slug: string): number {
  return createHash('sha256').update(slug).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The catalog fields a demo master is rendered from (a catalog row and a demo content entry both have them). */
export interface DemoMasterSource {
  slug: string;
  genre: string;
  subgenre: string;
  mood: string[];
  lifestyle?: string | null;
  bpm?: number | null;
  mode?: string | null;
  energy?: number | null;
}

/** The context and seed of a demo master: the same track always renders the same way (seed from its slug). */
export function demoMasterRequest(track: DemoMasterSource): { context: MusicContext; seed: number } {
  const bpm = track.bpm ?? 100;
  return {
    context: {
      genre: track.genre,
      subgenre: track.subgenre,
      mood: track.mood,
      lifestyle: (track.lifestyle ?? 'chill') as MusicContext['lifestyle'],
      tempo_range: [bpm, bpm],
      key_preference: (track.mode ?? 'any') as MusicContext['key_preference'],
      energy_level: track.energy ?? 0.5,
    },
    seed: seedOf(track.slug),
  };
}

/** Tracks still without a master, artists interleaved so the first few rendered span the genres. */
async function tracksToRender(db: Db) {
  const rows = await db
    .select({ track: tracks, artistName: artists.name })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    // Live tracks only: a sandbox copy takes its original's master (seed-sandbox.ts).
    .where(and(eq(tracks.environment, 'live'), isNull(tracks.audioBlobKey)))
    .orderBy(asc(tracks.releaseYear), asc(tracks.slug));
  const byArtist = new Map<string, typeof rows>();
  for (const row of rows) byArtist.set(row.track.artistId, [...(byArtist.get(row.track.artistId) ?? []), row]);
  const queues = [...byArtist.values()];
  const ordered: typeof rows = [];
  while (queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0) ordered.push(q.shift()!);
  return ordered;
}

export async function renderDemoMasters(
  deps: { db: Db; blobs: BlobStore; engine: Engine },
  trackSec: number,
  shouldStop: () => boolean,
  onRendered: (trackId: string) => void,
  /** Awaited before each master (the seeder gives way to the radio's own generations there). */
  beforeEach: () => Promise<void> = async () => undefined,
): Promise<number> {
  await backfillFeatures(deps);
  const model = await untrainedAudioModel(deps.blobs);
  let rendered = 0;
  for (const { track, artistName } of await tracksToRender(deps.db)) {
    await beforeEach();
    if (shouldStop()) break;
    await renderMaster(deps, model, track, artistName, trackSec, '');
    rendered += 1;
    onRendered(track.id);
  }
  return rendered;
}

/**
 * Masters first rendered short (so the radio and the first models had something at once) rendered again at
 * full length, under new blob keys (the short one may be on air). Resumable: only masters still short.
 */
export async function lengthenDemoMasters(
  deps: { db: Db; blobs: BlobStore; engine: Engine },
  trackSec: number,
  shouldStop: () => boolean,
  onRendered: (trackId: string) => void,
  beforeEach: () => Promise<void> = async () => undefined,
): Promise<number> {
  const model = await untrainedAudioModel(deps.blobs);
  const short = await deps.db
    .select({ track: tracks, artistName: artists.name })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(tracks.environment, 'live'), isNotNull(tracks.audioBlobKey), lt(tracks.durationSec, trackSec * 0.8)))
    .orderBy(asc(tracks.releaseYear), asc(tracks.slug));
  let rendered = 0;
  for (const { track, artistName } of short) {
    await beforeEach();
    if (shouldStop()) break;
    await renderMaster(deps, model, track, artistName, trackSec, `.${trackSec}s`);
    rendered += 1;
    onRendered(track.id);
  }
  return rendered;
}

async function renderMaster(
  deps: { db: Db; blobs: BlobStore; engine: Engine },
  model: ArtifactRef,
  track: typeof tracks.$inferSelect,
  artistName: string,
  trackSec: number,
  keySuffix: string,
): Promise<void> {
  const result = await deps.engine.generateTrack({
    ...demoMasterRequest(track),
    maxDurationSec: trackSec,
    quality: MASTER_QUALITY,
    audioModel: model,
    stationName: artistName,
  });
  const base = `catalog/${track.id}${keySuffix}`;
  // The lossless master is kept beside the MP3 (encoded once from it): the radio airs the master and encodes
  // its stream from it, so what airs is one lossy encode away from the render (issue 18). An engine that keeps
  // no master (a remote one from before) leaves the MP3 as the only audio.
  const keys = { audio: `${base}.mp3`, master: result.master ? `${base}.flac` : null, waveform: `${base}.waveform.json`, cover: `${base}.png` };
  if (keys.master && result.master) await deps.blobs.put(keys.master, result.master);
  await deps.blobs.put(keys.audio, result.mp3);
  await deps.blobs.put(keys.waveform, Buffer.from(JSON.stringify(result.waveform)));
  await deps.blobs.put(keys.cover, result.coverPng);
  // Playable from here on; the metadata now describes the audio as rendered (the composer picks the key
  // within the asked mode).
  await deps.db
    .update(tracks)
    .set({
      durationSec: result.durationSec,
      bpm: result.bpm,
      musicalKey: result.key,
      mode: result.mode,
      audioBlobKey: keys.audio,
      masterBlobKey: keys.master,
      audioFormat: 'mp3',
      audioBitrateKbps: Number.parseInt(MASTER_QUALITY, 10),
      audioSizeBytes: result.mp3.length,
      coverBlobKey: keys.cover,
      waveformBlobKey: keys.waveform,
    })
    .where(eq(tracks.id, track.id));
  await mirrorSandboxMedia(deps.db, track.slug);
  await storeFeatures(deps, track.id, result.mp3);
}

async function storeFeatures(deps: { db: Db; engine: Engine }, trackId: string, mp3: Buffer): Promise<void> {
  const features = await deps.engine.extractFeatures(mp3, 'mp3');
  await deps.db
    .insert(trackFeatures)
    .values({ trackId, extractorVersion: FEATURE_EXTRACTOR_VERSION, features })
    .onConflictDoUpdate({ target: trackFeatures.trackId, set: { features, extractorVersion: FEATURE_EXTRACTOR_VERSION } });
}

/** Masters stored by a run that stopped before their features were extracted. */
async function backfillFeatures(deps: { db: Db; blobs: BlobStore; engine: Engine }): Promise<void> {
  const missing = await deps.db
    .select({ id: tracks.id, audioBlobKey: tracks.audioBlobKey })
    .from(tracks)
    .leftJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
    .where(and(eq(tracks.environment, 'live'), isNotNull(tracks.audioBlobKey), isNull(trackFeatures.trackId)));
  for (const track of missing) await storeFeatures(deps, track.id, await deps.blobs.get(track.audioBlobKey!));
}
