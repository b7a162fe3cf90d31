/** generateTrack with lyrics: the vocal in the master, the stem beside it, determinism, instrumental unchanged. */
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../src/engine/features/decode.js';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { generateTrack, type GeneratedTrack, type GenerateTrackRequest } from '../../../src/engine/music/pipeline.js';
import { bandPass } from './analysis.js';
import { ENGLISH_LYRICS, POP_CONTEXT } from './fixtures.js';

const request: GenerateTrackRequest = {
  context: POP_CONTEXT,
  seed: 21,
  maxDurationSec: 16,
  quality: '128kbps',
  model: emptyAudioModel(),
  modelVersion: 'audio-test-1',
  label: { stationName: 'Test FM' },
  lyrics: ENGLISH_LYRICS,
};
/** Stem-to-mix energy in the voice band (300-3400 Hz) over the sung lines, dB: at least this. */
const AUDIBLE_DB = -6;

describe('generateTrack with lyrics', () => {
  let sung: GeneratedTrack;
  let again: GeneratedTrack;
  let instrumental: GeneratedTrack;

  beforeAll(async () => {
    sung = await generateTrack(request);
    again = await generateTrack(request);
    instrumental = await generateTrack({ ...request, lyrics: null });
  });

  it('is byte-identical for the same request and seed, vocals included', () => {
    expect(sung.vocals).not.toBeNull();
    expect(sung.mp3!.equals(again.mp3!)).toBe(true);
    expect(sung.vocals!.stemMp3.equals(again.vocals!.stemMp3)).toBe(true);
    expect(sung.vocals!.voice).toBe(again.vocals!.voice);
  });

  it('keeps the vocal stem beside the master: a mono MP3 as long as the track, and the sung notes', async () => {
    const stem = await decodeAudio(sung.vocals!.stemMp3, 'mp3', { sampleRate: 44100 });
    expect(Math.abs(stem.pcm.length / 44100 - request.maxDurationSec)).toBeLessThan(0.2);
    expect(sung.vocals!.stem.samples.length).toBe(request.maxDurationSec * 44100);
    expect(sung.vocals!.stem.notes.length).toBeGreaterThan(10);
    expect(sung.timings.vocalMs).toBeGreaterThan(0);
  });

  it('puts the vocal audibly in the mix', async () => {
    const mix = bandPass((await decodeAudio(sung.mp3!, 'mp3', { sampleRate: 44100 })).pcm, 44100, 300, 3400);
    const voice = bandPass(sung.vocals!.stem.samples, 44100, 300, 3400);
    let mixEnergy = 0;
    let voiceEnergy = 0;
    for (const line of sung.vocals!.stem.timeline.lines) {
      for (let i = Math.round(line.startSec * 44100); i < Math.round(line.endSec * 44100); i++) {
        mixEnergy += mix[i] ** 2;
        voiceEnergy += voice[i] ** 2;
      }
    }
    expect(10 * Math.log10(voiceEnergy / mixEnergy)).toBeGreaterThan(AUDIBLE_DB);
  });

  it('leaves a track without lyrics instrumental and unchanged', async () => {
    expect(instrumental.vocals).toBeNull();
    expect(instrumental.timings.vocalMs).toBeUndefined();
    const { lyrics: _ignored, ...withoutLyrics } = request;
    const plain = await generateTrack(withoutLyrics);
    expect(plain.mp3!.equals(instrumental.mp3!)).toBe(true);
    expect(sung.mp3!.equals(instrumental.mp3!)).toBe(false);
  });
});
