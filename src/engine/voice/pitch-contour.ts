/**
 * The sung pitch over time: the notes, joined the way a voice joins them. Inside a line, a new note is
 * reached by a raised-cosine glide of at most 50 ms that starts just before the note (legato portamento);
 * a line's first note starts a little flat and slides up (the onset "scoop"); a held note grows a vibrato
 * after a delay; a slow wander of a few cents keeps long notes from sounding machine-made.
 */
import { Rng } from '../random.js';
import type { TimedNote } from './timing.js';
import type { VoiceSpec } from './voices.js';

const GLIDE_MAX_SEC = 0.05;
const GLIDE_LEAD = 0.4; // share of the glide before the note's start
const SCOOP_SEC = 0.08;
const VIBRATO_RAMP_SEC = 0.2;
const WANDER_CENTS = 4;
const PHRASE_END_DROP = 0.35; // a held last note loses about 4 dB by its end

export class PitchContour {
  private cursor = 0;
  private readonly wanderPhase: [number, number];
  private readonly lineEnds: ReadonlySet<number>;

  constructor(
    private readonly notes: readonly TimedNote[],
    private readonly voice: VoiceSpec,
    seed: number,
  ) {
    const rng = Rng.derive(seed, 'voice-wander');
    this.wanderPhase = [rng.next() * 2 * Math.PI, rng.next() * 2 * Math.PI];
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
      midi = previous.midi + (note.midi - previous.midi) * (0.5 - 0.5 * Math.cos(Math.PI * progress));
    } else if (note.lineStart) {
      const progress = Math.min(1, Math.max(0, (time - (note.startSec - 0.02)) / SCOOP_SEC));
      midi -= (this.voice.scoopCents / 100) * (1 - progress) * (1 - progress);
    }
    const held = time - note.startSec - this.voice.vibratoDelaySec;
    if (held > 0 && note.endSec - note.startSec > this.voice.vibratoDelaySec + 0.15) {
      const depth = (this.voice.vibratoCents / 100) * Math.min(1, held / VIBRATO_RAMP_SEC);
      midi += depth * Math.sin(2 * Math.PI * this.voice.vibratoHz * time);
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
