/**
 * Sung vocals: lyrics -> pronunciation -> vocal melody over the score -> timed phonemes -> singing voice.
 *
 *   pronounce/      English (CMUdict + rules) and Spanish (rules) words -> syllables
 *   ../compose/vocal-melody.ts   syllables on notes, fitted to the score's form, chords and key
 *   timing.ts       notes -> phoneme timeline (consonants before the beat, vowels on it)
 *   articulation.ts timeline -> formant and source control tracks (coarticulation)
 *   pitch-contour.ts notes -> sung pitch (glides, scoop, vibrato)
 *   synth.ts        source-filter synthesis (glottal pulse, Klatt cascade/parallel resonators)
 *   voices.ts       the voices (timbre, range), cast by genre family and seed
 */
import type { TrackLyrics } from '../types.js';
import { type Score } from '../compose/score.js';
import { composeVocalMelody, makeRoomForVocals, type VocalMelody } from '../compose/vocal-melody.js';
import { type GenreFamily } from '../compose/style.js';
import { createPronouncer } from '../pronounce/index.js';
import { synthesise } from './synth.js';
import { timeMelody, type TimedNote, type VocalTimeline } from './timing.js';
import { chooseVoice, type VoiceSpec } from './voices.js';

export { VOICES, chooseVoice, type VoiceSpec } from './voices.js';
export type { TrackLyrics } from '../types.js';

export interface VocalStem {
  /** Mono, at `sampleRate`, as long as the track. */
  samples: Float32Array;
  sampleRate: number;
  voice: string;
  /** The melody sung: notes in seconds, each with the syllable it carries. */
  notes: TimedNote[];
  melody: VocalMelody;
  timeline: VocalTimeline;
}

/** RMS (dBFS) of the stem over its sung lines: a level the mix can rely on whatever the voice. */
const STEM_RMS_DB = -18;

export interface RenderVocalOptions {
  bpm: number;
  voice: VoiceSpec;
  seed: number;
  durationSec: number;
  sampleRate: number;
}

/** Renders a composed vocal melody into a mono stem, levelled to STEM_RMS_DB over its sung lines. */
export function renderVocalStem(melody: VocalMelody, opts: RenderVocalOptions): VocalStem {
  const timeline = timeMelody(melody, opts.bpm, opts.seed);
  const totalSamples = Math.round(opts.durationSec * opts.sampleRate);
  const samples = synthesise(timeline, { voice: opts.voice, seed: opts.seed, sampleRate: opts.sampleRate, totalSamples });
  levelStem(samples, timeline, opts.sampleRate);
  return { samples, sampleRate: opts.sampleRate, voice: opts.voice.id, notes: timeline.notes, melody, timeline };
}

function levelStem(samples: Float32Array, timeline: VocalTimeline, fs: number): void {
  let energy = 0;
  let count = 0;
  for (const line of timeline.lines) {
    const end = Math.min(samples.length, Math.round(line.endSec * fs));
    for (let i = Math.max(0, Math.round(line.startSec * fs)); i < end; i++) {
      energy += samples[i] * samples[i];
      count++;
    }
  }
  if (count === 0 || energy === 0) return;
  const gain = 10 ** (STEM_RMS_DB / 20) / Math.sqrt(energy / count);
  for (let i = 0; i < samples.length; i++) samples[i] *= gain;
}

export interface PreparedVocals {
  /** The score with the lead instrument cleared where the voice sings. */
  score: Score;
  stem: VocalStem;
}

/**
 * Everything a generation with lyrics needs: pronounce, compose the vocal line over `score`, cast a voice,
 * render the stem. Null when no line fits the track (a very short track stays instrumental).
 */
export async function prepareVocals(
  score: Score,
  lyrics: TrackLyrics,
  opts: { seed: number; family: GenreFamily; swing: number; durationSec: number; sampleRate: number },
): Promise<PreparedVocals | null> {
  const pronouncer = await createPronouncer(lyrics.language);
  const sections: Record<string, ReturnType<typeof pronouncer.line>[]> = {};
  for (const [key, text] of Object.entries(lyrics.sections)) {
    sections[key] = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length > 0)
      .map((l) => pronouncer.line(l))
      .filter((l) => l.syllables.length > 0);
  }
  const voice = chooseVoice(opts.family, opts.seed);
  const melody = composeVocalMelody(
    score,
    { language: pronouncer.language, sections, order: lyrics.order },
    { range: voice.range, seed: opts.seed, swing: opts.swing },
  );
  if (melody.notes.length === 0) return null;
  const stem = renderVocalStem(melody, { bpm: score.bpm, voice, seed: opts.seed, durationSec: opts.durationSec, sampleRate: opts.sampleRate });
  return { score: makeRoomForVocals(score, melody), stem };
}
