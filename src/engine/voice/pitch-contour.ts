/**
 * The sung pitch over time: the notes, joined the way a voice joins them. Inside a line, a new note is
 * reached by a raised-cosine glide of at most 50 ms that starts just before the note (legato portamento);
 * a line's first note starts a little flat and slides up (the onset "scoop"), and so do most notes reached by a
 * rising leap; a held note grows a vibrato after a delay, deepening and quickening over half a second; each
 * note lands a few cents off (seeded, so the same seed sings the same way) and a slow wander of a few cents
 * keeps long notes from sounding machine-made.
 */
import { Rng } from '../random.js';
import type { TimedNote } from './timing.js';
import type { VoiceSpec } from './voices.js';

const GLIDE_MAX_SEC = 0.05;
const GLIDE_LEAD = 0.4; // share of the glide before the note's start
const SCOOP_SEC = 0.08;
/** Vibrato develops: its depth grows over this long, and its rate rises from VIBRATO_START_RATE of the voice's. */
const VIBRATO_RAMP_SEC = 0.5;
const VIBRATO_START_RATE = 0.85;
const WANDER_CENTS = 4;
/** Each note lands a little off its pitch (seeded, Gaussian, this many cents standard deviation, clamped at
 *  DETUNE_MAX_CENTS): a sung line is not tuned to the cent, and a recogniser or a listener hears the exactness. */
const DETUNE_CENTS = 7;
const DETUNE_MAX_CENTS = 16;
/** A note reached by a rising leap of at least SCOOP_LEAP semitones is scooped into, from this far below, on
 *  SCOOP_SHARE of such notes (seeded). */
const LEAP_SCOOP_CENTS = 35;
const SCOOP_LEAP = 3;
const SCOOP_SHARE = 0.6;
const PHRASE_END_DROP = 0.35; // a held last note loses about 4 dB by its end

export class PitchContour {
  private cursor = 0;
  private readonly wanderPhase: [number, number];
  private readonly lineEnds: ReadonlySet<number>;
  /** Per note: its detune (semitones), whether it is scooped into, and its vibrato depth factor. */
  private readonly detune: Float64Array;
  private readonly scooped: Uint8Array;
  private readonly vibratoDepth: Float64Array;

  constructor(
    private readonly notes: readonly TimedNote[],
    private readonly voice: VoiceSpec,
    seed: number,
  ) {
    const rng = Rng.derive(seed, 'voice-wander');
    this.wanderPhase = [rng.next() * 2 * Math.PI, rng.next() * 2 * Math.PI];
    const drift = Rng.derive(seed, 'voice-drift');
    this.detune = new Float64Array(notes.length);
    this.scooped = new Uint8Array(notes.length);
    this.vibratoDepth = new Float64Array(notes.length);
    notes.forEach((note, i) => {
      const cents = Math.max(-DETUNE_MAX_CENTS, Math.min(DETUNE_MAX_CENTS, drift.gaussian() * DETUNE_CENTS));
      this.detune[i] = cents / 100;
      const leap = i > 0 && !note.lineStart ? note.midi - notes[i - 1].midi : 0;
      this.scooped[i] = leap >= SCOOP_LEAP && drift.next() < SCOOP_SHARE ? 1 : 0;
      this.vibratoDepth[i] = 0.75 + 0.5 * drift.next();
    });
    this.lineEnds = new Set(notes.flatMap((n, i) => (i === notes.length - 1 || notes[i + 1].lineStart ? [i] : [])));
  }

  /** The note sounding (or about to sound) at `time`: its index, or -1 before the first. */
  noteAt(time: number): number {
    const { notes } = this;
    if (this.cursor > 0 && notes[this.cursor].startSec - GLIDE_MAX_SEC * GLIDE_LEAD > time) this.cursor = 0;
    while (this.cursor < notes.length - 1 && notes[this.cursor + 1].startSec - GLIDE_MAX_SEC * GLIDE_LEAD <= time) this.cursor++;
    return notes.length === 0 ? -1 : this.cursor;
  }

  /** Fractional MIDI pitch at `time`. */
  midiAt(time: number): number {
    const i = this.noteAt(time);
    if (i < 0) return 60;
    const note = this.notes[i];
    let midi = note.midi;
    const previous = this.notes[i - 1];
    if (previous && !note.lineStart) {
      const glide = Math.min(GLIDE_MAX_SEC, 0.3 * (previous.endSec - previous.startSec), 0.3 * (note.endSec - note.startSec));
      const begin = note.startSec - glide * GLIDE_LEAD;
      const progress = glide > 0 ? Math.min(1, Math.max(0, (time - begin) / glide)) : 1;
      const from = previous.midi + this.detune[i - 1];
      midi = from + (note.midi + this.detune[i] - from) * (0.5 - 0.5 * Math.cos(Math.PI * progress));
      if (this.scooped[i]) {
        // Reached from below: the glide lands short and slides up over the note's first SCOOP_SEC.
        const up = Math.min(1, Math.max(0, (time - note.startSec) / SCOOP_SEC));
        midi -= (LEAP_SCOOP_CENTS / 100) * progress * (1 - up) * (1 - up);
      }
    } else if (note.lineStart) {
      const progress = Math.min(1, Math.max(0, (time - (note.startSec - 0.02)) / SCOOP_SEC));
      midi += this.detune[i] - (this.voice.scoopCents / 100) * (1 - progress) * (1 - progress);
    } else midi += this.detune[i];
    const held = time - note.startSec - this.voice.vibratoDelaySec;
    if (held > 0 && note.endSec - note.startSec > this.voice.vibratoDelaySec + 0.15) {
      const ramp = Math.min(1, held / VIBRATO_RAMP_SEC);
      const depth = (this.voice.vibratoCents / 100) * this.vibratoDepth[i] * ramp * ramp;
      // The rate rises linearly over the ramp; the phase is its integral, so the wave never jumps.
      const rampTime = Math.min(held, VIBRATO_RAMP_SEC);
      const rampCycles = VIBRATO_START_RATE * rampTime + ((1 - VIBRATO_START_RATE) * rampTime * rampTime) / (2 * VIBRATO_RAMP_SEC);
      const cycles = this.voice.vibratoHz * (rampCycles + Math.max(0, held - VIBRATO_RAMP_SEC));
      midi += depth * Math.sin(2 * Math.PI * cycles);
    }
    const [a, b] = this.wanderPhase;
    midi += (WANDER_CENTS / 100) * 0.5 * (Math.sin(2 * Math.PI * 0.37 * time + a) + Math.sin(2 * Math.PI * 0.83 * time + b));
    return midi;
  }

  /** Loudness of the sounding note, from its velocity (1 at velocity 100); a line's last note tails off. */
  loudnessAt(time: number): number {
    const i = this.noteAt(time);
    if (i < 0) return 1;
    const note = this.notes[i];
    const loudness = (note.velocity / 100) ** 1.3;
    if (!this.lineEnds.has(i)) return loudness;
    const middle = (note.startSec + note.endSec) / 2;
    return time <= middle ? loudness : loudness * (1 - PHRASE_END_DROP * Math.min(1, (time - middle) / (note.endSec - middle)));
  }
}

export function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}
