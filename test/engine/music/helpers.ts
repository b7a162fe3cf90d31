/** Test helpers: an MPEG audio frame walker and a synthetic catalog with known chord habits. */
import { Rng } from '../../../src/engine/random.js';
import type { AudioFeatures, MusicContext } from '../../../src/engine/types.js';
import type { TrainingItem } from '../../../src/engine/compose/audio-model.js';
import { id3TagLength } from '../../../src/engine/audio/id3.js';

const BITRATES_MPEG1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLE_RATES_MPEG1 = [44100, 48000, 32000];

export interface FrameSummary {
  frames: number;
  bitrates: Set<number>;
  sampleRates: Set<number>;
  allMpeg1Layer3: boolean;
  durationSec: number;
}

/** Walks MPEG frames after the ID3 tag; throws on a lost sync so a corrupt stream fails loudly. */
export function parseMp3Frames(file: Uint8Array): FrameSummary {
  let offset = id3TagLength(file);
  const summary: FrameSummary = { frames: 0, bitrates: new Set(), sampleRates: new Set(), allMpeg1Layer3: true, durationSec: 0 };
  while (offset + 4 <= file.length) {
    const [b0, b1, b2] = [file[offset], file[offset + 1], file[offset + 2]];
    if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`lost MPEG sync at byte ${offset}`);
    const version = (b1 >> 3) & 3; // 3 = MPEG-1
    const layer = (b1 >> 1) & 3; // 1 = Layer III
    if (version !== 3 || layer !== 1) summary.allMpeg1Layer3 = false;
    const bitrate = BITRATES_MPEG1_L3[(b2 >> 4) & 0xf];
    const sampleRate = SAMPLE_RATES_MPEG1[(b2 >> 2) & 3];
    const padding = (b2 >> 1) & 1;
    summary.bitrates.add(bitrate);
    summary.sampleRates.add(sampleRate);
    const length = Math.floor((144 * bitrate * 1000) / sampleRate) + padding;
    if (length <= 0) throw new Error(`bad frame length at ${offset}`);
    offset += length;
    summary.frames++;
  }
  summary.durationSec = (summary.frames * 1152) / 44100;
  return summary;
}

export const LOFI_CONTEXT: MusicContext = {
  genre: 'lo-fi hip hop',
  subgenre: 'chillhop',
  mood: ['calm', 'dreamy'],
  lifestyle: 'focus',
  tempo_range: [72, 88],
  key_preference: 'minor',
  energy_level: 0.4,
};

export const SYNTHWAVE_CONTEXT: MusicContext = {
  genre: 'synthwave',
  subgenre: 'retro electronic',
  mood: ['energetic'],
  lifestyle: 'party',
  tempo_range: [110, 124],
  key_preference: 'major',
  energy_level: 0.8,
};

const NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

/**
 * A synthetic catalog: each genre's tracks walk a known progression loop (with some noise), at a known
 * tempo, so tests can check that training learns it. `loops` are [semitones above tonic, minor] chords.
 */
export function syntheticCatalog(options: { tracksPerGenre: number; seed: number }): TrainingItem[] {
  const genres: { genre: string; mood: string[]; tempo: number; mode: 'major' | 'minor'; loop: [number, boolean][] }[] = [
    {
      genre: 'pop',
      mood: ['happy'],
      tempo: 118,
      mode: 'major',
      loop: [
        [0, false],
        [7, false],
        [9, true],
        [5, false],
      ],
    },
    {
      genre: 'jazz',
      mood: ['calm'],
      tempo: 92,
      mode: 'major',
      loop: [
        [2, true],
        [7, false],
        [0, false],
        [9, true],
      ],
    },
    {
      genre: 'lo-fi hip hop',
      mood: ['calm', 'dreamy'],
      tempo: 80,
      mode: 'minor',
      loop: [
        [0, true],
        [8, false],
        [3, false],
        [10, false],
      ],
    },
  ];
  const rng = new Rng(options.seed);
  const items: TrainingItem[] = [];
  for (const g of genres) {
    for (let t = 0; t < options.tracksPerGenre; t++) {
      const tonic = rng.int(0, 11);
      const beatChords: string[] = [];
      for (let bar = 0; bar < 32; bar++) {
        const [degree, minor] = rng.next() < 0.1 ? [rng.int(0, 11), rng.next() < 0.5] : g.loop[bar % g.loop.length];
        const label = NAMES[(tonic + degree) % 12] + (minor ? 'm' : '');
        for (let beat = 0; beat < 4; beat++) beatChords.push(label);
      }
      items.push({ genre: g.genre, mood: g.mood, features: features(g.tempo + rng.int(-3, 3), NAMES[tonic], g.mode, beatChords) });
    }
  }
  return items;
}

function features(tempoBpm: number, key: string, mode: 'major' | 'minor', beatChords: string[]): AudioFeatures {
  return {
    durationSec: (beatChords.length * 60) / tempoBpm,
    tempoBpm,
    tempoConfidence: 0.9,
    key,
    mode,
    keyConfidence: 0.8,
    chroma: new Array(12).fill(1 / 12),
    mfccMean: new Array(13).fill(0),
    mfccStd: new Array(13).fill(1),
    loudnessDb: -14,
    energy: 0.5,
    spectralCentroidHz: 1800,
    onsetRate: 3,
    beatChords,
  };
}
