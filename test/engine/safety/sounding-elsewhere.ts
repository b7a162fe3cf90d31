/**
 * Test support for the audio duplicate filter: features of the same music whose summary sound reads as something
 * else (tempo, mode, timbre and loudness moved), with too few beat chords to be evidence, as a re-encoded or
 * trimmed 8 s master can read. Whatever still flags such features is the chroma fingerprint.
 */
import type { AudioFeatures } from '../../../src/engine/types.js';

export const soundingElsewhere = (f: AudioFeatures): AudioFeatures => ({
  ...f,
  tempoBpm: f.tempoBpm * 1.37,
  mode: f.mode === 'major' ? 'minor' : 'major',
  mfccMean: f.mfccMean.map((m) => m + 6),
  loudnessDb: f.loudnessDb - 5,
  beatChords: f.beatChords.slice(0, 4), // too few beats to be evidence
});
