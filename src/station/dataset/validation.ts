/**
 * The validation report (POST /dataset/validate): every master of the set exists in blob storage (the
 * CDN's origin) and decodes, every lyric carries a valid platform songwriter attribution, and nothing
 * third-party is in the set: no track or lyric of an artist that is not platform-owned, no configuration
 * that would include one, and no master that is a near-duplicate of a non-platform master (the safety
 * filter's audio near-duplicate measure, against a reference built from non-platform features only).
 */
import type { Readable } from 'node:stream';
import type { AudioFeatures } from '../../engine/types.js';
import { decodeAudio, type AudioFormat } from '../../engine/features/decode.js';
import { AudioDuplicateIndex, scoreAudio } from '../../engine/safety/index.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import { NOT_PLATFORM_OWNED } from './eligibility.js';
import type { TrackCheckRow } from './catalog-reads.js';
import type { DatasetRepository } from './repository.js';
import type { ProblemKind, ValidationProblem } from './schemas.js';

/** Enough of each master to prove it decodes without reading or decoding it all. */
const DECODE_PREFIX_BYTES = 256 * 1024;
const DECODE_SECONDS = 2;
const CONCURRENCY = 4;

export interface ValidationTarget {
  audioTrackIds: string[];
  lyricIds: string[];
  /** Artists the configuration names as included (whitelist entries, per-artist "included"). */
  includedArtistRefs: { artistId: string; via: string }[];
}

export interface ValidationOutcome {
  checked: { masters: number; lyrics: number; non_platform_references: number };
  problems: ValidationProblem[];
}

export type MasterDecoder = (bytes: Uint8Array, format: AudioFormat) => Promise<unknown>;

const defaultDecoder: MasterDecoder = (bytes, format) => decodeAudio(bytes, format, { maxDurationSec: DECODE_SECONDS });

async function readPrefix(stream: Readable, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    parts.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= limit) break;
  }
  stream.destroy();
  return Buffer.concat(parts);
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(workers);
}

export class DatasetValidator {
  constructor(
    private readonly deps: {
      repo: Pick<DatasetRepository, 'tracksForCheck' | 'lyricsForCheck' | 'artistsByIds' | 'featuresOf' | 'nonPlatformFeatures'>;
      blobs: Pick<BlobStore, 'stat' | 'stream'>;
      decode?: MasterDecoder;
    },
  ) {}

  async validate(target: ValidationTarget): Promise<ValidationOutcome> {
    const problems: ValidationProblem[] = [];
    const report = (item_type: ValidationProblem['item_type'], item_id: string, problem: ProblemKind, detail: string, title?: string) =>
      problems.push({ item_type, item_id, ...(title === undefined ? {} : { title }), problem, detail });

    await this.checkArtistReferences(target.includedArtistRefs, report);
    const tracks = new Map((await this.deps.repo.tracksForCheck(target.audioTrackIds)).map((r) => [r.id, r]));
    await this.checkMasters(target.audioTrackIds, tracks, report);
    await this.checkLyrics(target.lyricIds, report);
    await this.checkNearDuplicates(target.audioTrackIds, tracks, report);

    const order = (p: ValidationProblem) => `${p.item_type}\u0000${p.item_id}\u0000${p.problem}`;
    problems.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    return {
      checked: { masters: target.audioTrackIds.length, lyrics: target.lyricIds.length, non_platform_references: target.includedArtistRefs.length },
      problems,
    };
  }

  private async checkArtistReferences(refs: ValidationTarget['includedArtistRefs'], report: Reporter): Promise<void> {
    if (refs.length === 0) return;
    const known = new Map((await this.deps.repo.artistsByIds(refs.map((r) => r.artistId))).map((a) => [a.id, a]));
    for (const ref of refs) {
      const artist = known.get(ref.artistId);
      if (!artist) report('artist', ref.artistId, 'non_platform_artist', `${ref.via} names an artist that does not exist`);
      else if (!artist.platformOwned)
        report('artist', artist.id, 'non_platform_artist', `${ref.via} includes an artist that is ${NOT_PLATFORM_OWNED}`, artist.name);
    }
  }

  private async checkMasters(trackIds: string[], rows: Map<string, TrackCheckRow>, report: Reporter): Promise<void> {
    const decode = this.deps.decode ?? defaultDecoder;
    await eachLimited(trackIds, CONCURRENCY, async (id) => {
      const track = rows.get(id);
      if (!track) return void report('track', id, 'track_missing', 'the track is no longer in the catalog');
      if (!track.artistPlatformOwned) report('track', id, 'non_platform_artist', `the track's artist is ${NOT_PLATFORM_OWNED}`, track.title);
      if (!track.hasFeatures) report('track', id, 'features_missing', 'the master has no extracted style features to train on', track.title);
      if (!track.audioBlobKey) return void report('track', id, 'master_missing', 'the track has no master', track.title);
      const info = await this.deps.blobs.stat(track.audioBlobKey).catch(() => null);
      if (!info) return void report('track', id, 'master_missing', 'the master file is not in storage', track.title);
      const format = track.audioFormat === 'wav' ? 'wav' : track.audioFormat === 'mp3' || track.audioFormat === null ? 'mp3' : null;
      if (!format)
        return void report('track', id, 'master_undecodable', `the master's format (${track.audioFormat}) cannot be decoded for training`, track.title);
      try {
        const end = Math.min(info.size, DECODE_PREFIX_BYTES) - 1;
        if (end < 0) throw new Error('the file is empty');
        const bytes = await readPrefix(this.deps.blobs.stream(track.audioBlobKey, { start: 0, end }), end + 1);
        const decoded = (await decode(bytes, format)) as { pcm?: Float32Array } | undefined;
        if (decoded?.pcm && decoded.pcm.length === 0) throw new Error('no audio samples');
      } catch {
        // The decoder's own words (and our storage key) stay on the server: the report says what is wrong.
        report('track', id, 'master_undecodable', `the master does not decode as ${format}`, track.title);
      }
    });
  }

  private async checkLyrics(lyricIds: string[], report: Reporter): Promise<void> {
    const rows = new Map((await this.deps.repo.lyricsForCheck(lyricIds)).map((r) => [r.id, r]));
    for (const id of lyricIds) {
      const lyric = rows.get(id);
      if (!lyric) {
        report('lyric', id, 'lyric_missing', 'the lyric is no longer in the catalog');
        continue;
      }
      if (!lyric.artistPlatformOwned) report('lyric', id, 'non_platform_artist', `the lyric's artist is ${NOT_PLATFORM_OWNED}`, lyric.title);
      if (!lyric.songwriterPlatformOwned) {
        report(
          'lyric',
          id,
          'lyric_without_platform_credit',
          `songwriter ${lyric.songwriterName} (${lyric.songwriterId}) is not a platform songwriter`,
          lyric.title,
        );
      } else if (lyric.creditedOnTrack === false) {
        report(
          'lyric',
          id,
          'lyric_credit_not_on_track',
          `songwriter ${lyric.songwriterName} holds no lyricist credit on track ${lyric.trackId}, so the attribution is not backed by the track's credits`,
          lyric.title,
        );
      }
    }
  }

  private async checkNearDuplicates(trackIds: string[], tracks: Map<string, TrackCheckRow>, report: Reporter): Promise<void> {
    const thirdParty = await this.deps.repo.nonPlatformFeatures();
    if (thirdParty.length === 0 || trackIds.length === 0) return;
    const titleOf = new Map(thirdParty.map((t) => [t.id, t.title]));
    const index = new AudioDuplicateIndex(thirdParty.map((t) => ({ id: t.id, features: t.features })));
    const features: Map<string, AudioFeatures> = await this.deps.repo.featuresOf(trackIds);
    for (const id of trackIds) {
      const own = features.get(id);
      if (!own) continue;
      const verdict = scoreAudio(index.nearest(own));
      if (verdict.playable) continue;
      const nearest = verdict.details.nearestId!;
      report(
        'track',
        id,
        'near_duplicate_of_non_platform_audio',
        `near-duplicate (similarity ${verdict.details.similarity}) of non-platform track ${nearest} "${titleOf.get(nearest)}"`,
        tracks.get(id)?.title,
      );
    }
  }
}

type Reporter = (item_type: ValidationProblem['item_type'], item_id: string, problem: ProblemKind, detail: string, title?: string) => void;
