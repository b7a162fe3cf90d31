/**
 * Phoneme timeline -> control tracks of the formant synthesiser (coarticulation lives here).
 *
 * Two tracks, as articulators and larynx move at different speeds:
 * - the tract track (F1-F3, their bandwidths, the nasal zero) has points at each segment's steady part
 *   only, so formants glide linearly from one target to the next across every boundary: consonant loci
 *   lean towards the neighbouring vowel, and a vowel's formants move out of and into its consonants;
 * - the source track (voicing, aspiration, frication and its spectrum) has sharp edges: a stop's closure
 *   is silent (or a voice bar), its burst starts within a millisecond, a fricative's noise ramps in 10 ms.
 */
import type { Consonant, Vowel } from '../pronounce/phonemes.js';
import { isVowel } from '../pronounce/phonemes.js';
import { CONSONANT_TARGETS, type Formants, VOWEL_TARGETS } from './targets.js';
import { ParameterTrack } from './filters.js';
import type { Segment, VocalTimeline } from './timing.js';
import type { VoiceSpec } from './voices.js';

/** Tract track columns. */
export const T = { F1: 0, F2: 1, F3: 2, B1: 3, B2: 4, B3: 5, FNZ: 6, F1_RAISE: 7 } as const;
/** Source track columns: voicing, aspiration, frication amplitudes, two noise bands, bypass. */
export const S = { AV: 0, AH: 1, AF: 2, N1F: 3, N1B: 4, N1G: 5, N2F: 6, N2B: 7, N2G: 8, BYP: 9 } as const;

export const NASAL_POLE_HZ = 270;
const LOCUS_PULL = 0.3; // how far a consonant's F2/F3 locus leans towards its vowel
/** Velars have no fixed locus: the tongue body meets the palate where the vowel puts it ("key" vs "coo"). */
const VELAR_PULL = 0.65;
const VELARS = new Set(['K', 'G', 'NG', 'X']);
const RELEASE_SEC = 0.06;
/**
 * A vowel reaches its target this long after its start, and leaves it this long before its end, whatever
 * the note's length: the formant transitions into and out of consonants last about as long as in speech
 * (40-60 ms after a stop's release, Kewley-Port 1982; longer after glides), and they carry most of the
 * cue to the consonant's place (the F2 locus, Delattre et al. 1955). A held note adds steady vowel in the
 * middle, not a slower transition.
 */
export const TRANSITION_SEC = 0.05;

export interface ControlTracks {
  tract: ParameterTrack;
  source: ParameterTrack;
}

export function buildTracks(timeline: VocalTimeline, voice: VoiceSpec): ControlTracks {
  const tract = new ParameterTrack(8);
  const source = new ParameterTrack(10);
  const { segments } = timeline;
  const silent = new Float64Array(10);
  silent[S.N1F] = 3000;
  silent[S.N1B] = 1000;
  silent[S.N2F] = 6000;
  silent[S.N2B] = 2000;
  segments.forEach((seg, i) => {
    const prev = segments[i - 1];
    const next = segments[i + 1];
    const lineStart = !prev || prev.line !== seg.line;
    const lineEnd = !next || next.line !== seg.line;
    if (lineStart) source.add(seg.startSec - 0.002, silent);
    addTract(tract, seg, neighbourVowel(segments, i), voice);
    // A vowel that starts a syllable straight after another vowel gets a soft glottal re-attack.
    const reattack = !lineStart && isVowel(seg.phone) && prev.syllable !== seg.syllable && isVowel(prev.phone);
    addSource(source, seg, silent, voice, lineStart, reattack);
    if (lineEnd) {
      // The line's last sound dies away: a short release, then silence until the next line.
      source.add(seg.endSec + RELEASE_SEC, silent);
    }
  });
  return { tract, source };
}

/** The vowel a consonant coarticulates with: the following one for onsets, the preceding one for codas. */
function neighbourVowel(segments: readonly Segment[], i: number): Vowel | null {
  const seg = segments[i];
  const direction = seg.role === 'coda' ? -1 : 1;
  for (let k = i + direction; k >= 0 && k < segments.length && segments[k].syllable === seg.syllable; k += direction) {
    if (isVowel(segments[k].phone)) return segments[k].phone as Vowel;
  }
  return null;
}

/**
 * How far a vowel's F1 may rise towards a high note's pitch (singers' "formant tuning", Sundberg 1987): open
 * vowels (speech F1 of 600 Hz or more in a man's voice: /a/, /ae/, /ah/, the start of /ai/, /au/) by up to
 * OPEN_F1_RAISE; mid and close vowels (/i/, /u/, /e/, /o/) not at all, so "seat" stays "seat" and does not
 * drift to "set" on a high note: a listener, and a recogniser trained on speech, tell them apart by F1.
 * Consonants keep their loci (a nasal murmur's low F1 is what makes it a nasal).
 */
export const OPEN_F1_RAISE = 1.25;
function f1Raise(f: Formants): number {
  return f[0] >= 600 ? OPEN_F1_RAISE : 1;
}

/** The F1 a voice sings at pitch `f0`: raised towards the pitch (1.05 f0) but by no more than `raise`. */
export function tunedF1(f1: number, raise: number, f0: number): number {
  return Math.min(Math.max(f1, f0 * 1.05), f1 * raise);
}

function scaled(f: Formants, voice: VoiceSpec): Formants {
  return [f[0] * voice.formantScale, f[1] * voice.formantScale, f[2] * voice.formantScale];
}

function addTract(track: ParameterTrack, seg: Segment, vowel: Vowel | null, voice: VoiceSpec) {
  const dur = seg.endSec - seg.startSec;
  const row = (f: Formants, b: Formants, nasalZero = NASAL_POLE_HZ, raise = 1) => [f[0], f[1], f[2], b[0], b[1], b[2], nasalZero, raise];
  if (isVowel(seg.phone)) {
    const target = VOWEL_TARGETS[seg.phone];
    const b: Formants = [target.b1 ?? 90, 100, 150];
    const raise = f1Raise(target.f);
    const edge = Math.min(TRANSITION_SEC, dur * 0.3);
    track.add(seg.startSec + edge, row(scaled(target.f, voice), b, NASAL_POLE_HZ, raise));
    if (target.to) {
      track.add(seg.startSec + dur * 0.5, row(scaled(target.f, voice), b, NASAL_POLE_HZ, raise));
      track.add(seg.endSec - Math.min(0.01, dur * 0.1), row(scaled(target.to, voice), b, NASAL_POLE_HZ, f1Raise(target.to)));
    } else track.add(seg.endSec - edge, row(scaled(target.f, voice), b, NASAL_POLE_HZ, raise));
    return;
  }
  const c = CONSONANT_TARGETS[seg.phone as Consonant];
  const v = vowel ? VOWEL_TARGETS[vowel] : null;
  const vowelF = v ? (seg.role === 'coda' && v.to ? v.to : v.f) : c.f;
  const pull = VELARS.has(seg.phone) ? VELAR_PULL : LOCUS_PULL;
  // /h/ has no place of its own: it is the next vowel breathed.
  const locus: Formants = c.manner === 'aspirate' ? vowelF : [c.f[0], c.f[1] + (vowelF[1] - c.f[1]) * pull, c.f[2] + (vowelF[2] - c.f[2]) * pull];
  const b = c.b ?? [90, 120, 180];
  const values = row(scaled(locus, voice), b, c.nasalZero ?? NASAL_POLE_HZ);
  if (c.manner === 'stop' || c.manner === 'affricate') {
    // Formants sit at the locus through the closure and at the release, then move to the vowel.
    track.add(seg.startSec + dur * 0.3, values);
    track.add(seg.endSec - (seg.role === 'onset' ? 0 : dur * 0.2), values);
  } else {
    track.add(seg.startSec + dur * 0.25, values);
    track.add(seg.endSec - dur * 0.25, values);
  }
}

function addSource(track: ParameterTrack, seg: Segment, silent: Float64Array, voice: VoiceSpec, lineStart: boolean, reattack: boolean) {
  const t0 = seg.startSec;
  const t1 = seg.endSec;
  const dur = t1 - t0;
  const point = (t: number, values: Partial<Record<keyof typeof S, number>>, base: Float64Array = silent) => {
    const row = Float64Array.from(base);
    for (const [k, v] of Object.entries(values)) row[S[k as keyof typeof S]] = v!;
    track.add(t, row);
    return row;
  };
  if (isVowel(seg.phone)) {
    const ramp = lineStart ? 0.03 : Math.min(0.01, dur * 0.2);
    if (reattack) {
      point(t0 + 0.002, { AV: 0.2 });
      point(t0 + 0.025, { AV: 1 });
    } else point(t0 + ramp, { AV: 1 });
    point(t1 - Math.min(0.01, dur * 0.2), { AV: 1 });
    return;
  }
  const c = CONSONANT_TARGETS[seg.phone as Consonant];
  const noise = c.noise;
  const spectrum = noise
    ? {
        N1F: noise.bands[0][0],
        N1B: noise.bands[0][1],
        N1G: noise.bands[0][2],
        N2F: noise.bands[1][0],
        N2B: noise.bands[1][1],
        N2G: noise.bands[1][2],
        BYP: noise.bypass,
      }
    : {};
  const ramp = Math.min(0.012, dur * 0.25);
  switch (c.manner) {
    case 'stop':
    case 'affricate': {
      const release = c.manner === 'stop' ? t0 + dur * (c.voiced ? 0.7 : 0.5) : t0 + dur * 0.4;
      const bar = c.voiced ? 0.12 : 0; // voiced closures keep a low "voice bar"
      point(t0 + 0.004, { AV: bar });
      const closed = point(release - 0.0005, { AV: bar, ...spectrum });
      if (c.manner === 'affricate') {
        point(release + 0.004, { AV: c.voiced ? 0.35 : 0, AF: noise!.level, ...spectrum }, closed);
        point(t1 - 0.006, { AV: c.voiced ? 0.35 : 0, AF: noise!.level, ...spectrum }, closed);
        return;
      }
      const coda = seg.role === 'coda';
      const burst = noise!.level * (coda ? 0.5 : 1);
      point(release + 0.0005, { AF: burst, AV: bar, ...spectrum }, closed);
      point(release + 0.007, { AF: burst * 0.6, AV: bar, ...spectrum }, closed);
      if (c.voiced) point(t1, { AV: 0.8, ...spectrum }, closed);
      else {
        // Aspiration after a voiceless release (shorter and weaker at a syllable's end).
        point(release + 0.01, { AH: coda ? 0.2 : 0.6, ...spectrum }, closed);
        point(t1 - 0.002, { AH: coda ? 0.1 : 0.45, ...spectrum }, closed);
      }
      return;
    }
    case 'fricative': {
      // A voiced fricative is mostly voice, its noise weak (/v/, /dh/ with more noise were heard as /z/).
      const av = c.voiced ? 0.7 : 0;
      point(t0 + ramp, { AV: av, AF: noise!.level, ...spectrum });
      point(t1 - ramp, { AV: av, AF: noise!.level, ...spectrum });
      return;
    }
    case 'aspirate':
      point(t0 + ramp, { AH: 0.7 });
      point(t1 - ramp * 0.5, { AH: 0.7 });
      return;
    case 'nasal':
      // The nasal pole gives the murmur its low peak at 270 Hz: a lower drive keeps the murmur below the vowel.
      point(t0 + ramp, { AV: 0.3 });
      point(t1 - ramp, { AV: 0.3 });
      return;
    case 'liquid':
    case 'glide':
      point(t0 + ramp, { AV: 0.6 });
      point(t1 - ramp, { AV: 0.6 });
      return;
    case 'tap':
      point(t0 + dur * 0.2, { AV: 0.8 });
      point(t0 + dur * 0.5, { AV: 0.25 });
      point(t1 - dur * 0.2, { AV: 0.8 });
      return;
    case 'trill':
      // Three quick closures of the tongue tip, about 25 per second.
      for (let k = 0; k < 3; k++) {
        const a = t0 + (dur * k) / 3;
        point(a + dur / 12, { AV: 0.8 });
        point(a + dur / 6, { AV: 0.2 });
        point(a + dur / 4, { AV: 0.8 });
      }
      return;
  }
}
