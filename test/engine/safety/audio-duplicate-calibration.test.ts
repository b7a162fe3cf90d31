/**
 * The audio near-duplicate check on real engine audio: demo catalog masters rendered as the demo seed
 * renders them (src/demo/seed-audio.ts). True copies of a master must fail the check; distinct masters of
 * the same genre must pass against each other. The pairs are the closest same-genre pairs measured by
 * bench/audio-duplicate-calibration.ts (run-the-grid / pulse-rate: summary distance 0.63, which alone scored
 * 0.17; fire-escape-astronomy / library-basement: 1.01).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoTracks } from '../../../src/demo/content/tracks.js';
import { demoMasterRequest } from '../../../src/demo/seed-audio.js';
import { decodeAudio } from '../../../src/engine/features/decode.js';
import { extractFeatures, extractFeaturesFromFile } from '../../../src/engine/features/extract.js';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { generateTrack } from '../../../src/engine/music/pipeline.js';
import { transcodeMp3 } from '../../../src/engine/music/transcode.js';
import { SafetyFilter, SAFETY_PLAYBACK_THRESHOLD, sequenceAgreement } from '../../../src/engine/safety/index.js';
import type { AudioFeatures } from '../../../src/engine/types.js';

const TRACK_SEC = 30;
const SLUGS = ['run-the-grid', 'pulse-rate', 'fire-escape-astronomy', 'library-basement'] as const;

async function renderMaster(slug: string): Promise<Buffer> {
  const track = demoTracks.find((t) => t.slug === slug)!;
  const result = await generateTrack({
    ...demoMasterRequest(track),
    maxDurationSec: TRACK_SEC,
    quality: '128kbps',
    model: emptyAudioModel(),
    modelVersion: 'untrained',
  });
  return result.mp3!;
}

describe('audio near-duplicate check on demo masters', () => {
  const mp3 = new Map<string, Buffer>();
  const features = new Map<string, AudioFeatures>();

  beforeAll(async () => {
    for (const slug of SLUGS) {
      const bytes = await renderMaster(slug);
      mp3.set(slug, bytes);
      features.set(slug, await extractFeaturesFromFile(bytes, 'mp3'));
    }
  }, 120_000);

  const filterOf = (slugs: readonly string[]) => new SafetyFilter({ catalogAudio: slugs.map((id) => ({ id, features: features.get(id)! })) });

  it.each([
    ['run-the-grid', 'pulse-rate'],
    ['fire-escape-astronomy', 'library-basement'],
  ])('passes %s against %s (distinct masters of the same genre)', (a, b) => {
    const r = filterOf([b]).checkAudio(features.get(a)!);
    expect(r.flagged_categories).toEqual([]);
    expect(r.safety_score).toBeGreaterThanOrEqual(SAFETY_PLAYBACK_THRESHOLD);
    expect(r.details.sequenceAgreement).toBeLessThan(0.5);
  });

  it('flags true copies of a master (re-encoded, gain changed, trimmed, re-rendered) and names it', async () => {
    const slug = 'pulse-rate';
    const master = mp3.get(slug)!;
    const { pcm, sampleRate } = await decodeAudio(master, 'mp3');
    const copies: [string, AudioFeatures][] = [
      ['192 kbps', await extractFeaturesFromFile(await transcodeMp3(master, '192kbps'), 'mp3')],
      ['320 kbps', await extractFeaturesFromFile(await transcodeMp3(master, '320kbps'), 'mp3')],
      [
        'gain -1 dB',
        extractFeatures(
          pcm.map((x) => x * 10 ** (-1 / 20)),
          sampleRate,
        ),
      ],
      ['trimmed by 1 s', extractFeatures(pcm.subarray(sampleRate), sampleRate)],
      ['re-rendered from the same seed', await extractFeaturesFromFile(await renderMaster(slug), 'mp3')],
    ];
    const filter = filterOf(SLUGS);
    for (const [kind, copy] of copies) {
      const r = filter.checkAudio(copy);
      expect({ kind, nearest: r.details.nearestId, flagged: r.flagged_categories, playable: r.playable }).toEqual({
        kind,
        nearest: slug,
        flagged: ['audio_duplicate'],
        playable: false,
      });
    }
  }, 120_000);
});

describe('sequenceAgreement', () => {
  const progression = ['C', 'C', 'C', 'C', 'Am', 'Am', 'Am', 'Am', 'F', 'F', 'F', 'F', 'G', 'G', 'G', 'G'];
  const song = [...progression, ...progression.map((c) => (c === 'F' ? 'Dm' : c)), ...progression];

  it('is 1 for the same sequence and for the same sequence shifted by a few beats', () => {
    expect(sequenceAgreement(song, song)).toBe(1);
    expect(sequenceAgreement(song.slice(3), song)).toBe(1);
    expect(sequenceAgreement(song, song.slice(5))).toBe(1);
  });

  it('is 1 for the same sequence read at half or double the beat rate (a tempo octave error)', () => {
    expect(
      sequenceAgreement(
        song.filter((_, i) => i % 2 === 1),
        song,
      ),
    ).toBe(1);
    expect(
      sequenceAgreement(
        song.flatMap((c) => [c, c]),
        song,
      ),
    ).toBe(1);
  });

  it('is about 0 for the same chords in another order (agreement no better than chance)', () => {
    const other = ['G', 'G', 'F', 'F', 'C', 'C', 'Am', 'Am'];
    const reordered = Array.from({ length: song.length }, (_, i) => other[(i * 3) % other.length]);
    expect(sequenceAgreement(reordered, song)).toBeLessThan(0.35);
  });

  it('is no evidence (1) when a sequence is too short or both hold a single identical chord', () => {
    expect(sequenceAgreement(['C', 'G'], song)).toBe(1);
    expect(sequenceAgreement(new Array(20).fill('C'), new Array(30).fill('C'))).toBe(1);
  });
});
