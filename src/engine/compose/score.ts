/**
 * The composer's output: a small score in beats (not seconds), so that every part can be written without
 * knowing the tempo, plus its conversion to a standard MIDI file for debugging and export.
 */
import tonejsMidi from '@tonejs/midi';
import type { Mode } from '../types.js';
import type { ChordVoice } from './harmony.js';

const { Midi } = tonejsMidi;

export type SectionName = 'intro' | 'verse' | 'chorus' | 'bridge' | 'outro';

/** A chord held over a run of beats (the timeline's harmonic rhythm). */
export interface ChordSpan {
  chord: ChordVoice;
  startBeat: number;
  beats: number;
}

export interface Section {
  name: SectionName;
  startBar: number;
  bars: number;
  /** 0..1, how full the arrangement is in this section. */
  intensity: number;
}

export interface ScoreNote {
  midi: number;
  startBeat: number;
  durationBeats: number;
  velocity: number; // 1..127
}

export interface Part {
  role: 'chords' | 'bass' | 'melody' | 'pad' | 'drums';
  channel: number; // 9 is the General MIDI drum channel
  program: number; // General MIDI program, 0..127 (ignored for drums)
  volume: number; // MIDI CC7, 0..127
  pan: number; // MIDI CC10, 0..127
  notes: ScoreNote[];
}

export interface Score {
  bpm: number;
  key: string; // tonic pitch class, e.g. "F#"
  mode: Mode;
  beatsPerBar: 4;
  sections: Section[];
  /** One chord symbol per bar (absolute, e.g. "Am"), for display and tests. */
  chordsPerBar: string[];
  totalBeats: number;
  parts: Part[];
  /** The chords in time and the key's scale (pitch classes): what a part written later (the vocal) fits. */
  harmony: { spans: ChordSpan[]; scale: number[] };
}

export function secondsPerBeat(score: Score): number {
  return 60 / score.bpm;
}

/** The score as a Standard MIDI File (type 1), one track per part. */
export function scoreToMidi(score: Score): InstanceType<typeof Midi> {
  const midi = new Midi();
  midi.header.setTempo(score.bpm);
  midi.header.keySignatures.push({ key: score.key, scale: score.mode, ticks: 0 });
  const spb = secondsPerBeat(score);
  for (const part of score.parts) {
    const track = midi.addTrack();
    track.name = part.role;
    track.channel = part.channel;
    track.instrument.number = part.program;
    for (const note of part.notes) {
      track.addNote({ midi: note.midi, time: note.startBeat * spb, duration: note.durationBeats * spb, velocity: note.velocity / 127 });
    }
  }
  return midi;
}
