/**
 * Renders a Score to 44.1 kHz stereo with spessasynth_core and the FluidR3Mono General MIDI SoundFont.
 * The score's notes become a sample-accurate event list; the synth renders up to each event, and every
 * finished block (a few thousand samples) is mixed (reverb, limiter, fade) and handed to `onBlock` at
 * once, so the caller can encode it and the track never exists uncompressed in memory.
 *
 * Cost choices (see README): built-in effects off, a voice cap, linear interpolation.
 */
import { MIDIControllers, SpessaSynthProcessor } from 'spessasynth_core';
import type { ProgressFn } from '../types.js';
import type { Score } from './compose/score.js';
import { secondsPerBeat } from './compose/score.js';
import { SmallRoomReverb } from './reverb.js';
import { loadSoundBank } from './soundfont.js';

export const SAMPLE_RATE = 44100;
const SYNTH_QUANTUM = 128;
const BLOCK_SAMPLES = 8192;
const VOICE_CAP = 48;
const FADE_OUT_SEC = 1.5;
const LIMIT_THRESHOLD = 0.89; // about -1 dBFS
const LIMIT_RELEASE = 0.9995;

interface NoteEvent {
  sample: number;
  on: boolean;
  channel: number;
  midi: number;
  velocity: number;
}

export interface RenderOptions {
  durationSec: number;
  reverbMix: number;
  masterGain?: number;
  onBlock(left: Float32Array, right: Float32Array): void;
  onProgress?: ProgressFn;
}

/** Note-on/off events in sample time. Repeated pitches on a channel are cut at the next onset. */
export function scoreEvents(score: Score, totalSamples: number): NoteEvent[] {
  const spb = secondsPerBeat(score);
  const events: NoteEvent[] = [];
  for (const part of score.parts) {
    const byPitch = new Map<number, { start: number; end: number; velocity: number }[]>();
    for (const note of part.notes) {
      const start = Math.round(note.startBeat * spb * SAMPLE_RATE);
      const end = Math.round((note.startBeat + note.durationBeats) * spb * SAMPLE_RATE);
      if (start >= totalSamples) continue;
      const list = byPitch.get(note.midi) ?? byPitch.set(note.midi, []).get(note.midi)!;
      list.push({ start, end: Math.max(start + 1, end), velocity: note.velocity });
    }
    for (const [midi, notes] of byPitch) {
      notes.sort((a, b) => a.start - b.start);
      notes.forEach((n, i) => {
        const next = notes[i + 1];
        if (next && next.start === n.start) return; // doubled note: keep one
        const end = Math.min(n.end, next ? next.start : Infinity, totalSamples);
        events.push({ sample: n.start, on: true, channel: part.channel, midi, velocity: n.velocity });
        events.push({ sample: end, on: false, channel: part.channel, midi, velocity: 0 });
      });
    }
  }
  // Offs before ons at the same instant, then a fixed order: determinism does not rely on sort stability.
  return events.sort((a, b) => a.sample - b.sample || Number(a.on) - Number(b.on) || a.channel - b.channel || a.midi - b.midi);
}

export async function renderScore(score: Score, opts: RenderOptions): Promise<{ samples: number; peak: number }> {
  const totalSamples = Math.round(opts.durationSec * SAMPLE_RATE);
  const synth = new SpessaSynthProcessor(SAMPLE_RATE, { maxBufferSize: SYNTH_QUANTUM, effectsEnabled: false, eventsEnabled: false });
  synth.soundBankManager.addSoundBank(loadSoundBank(), 'gm');
  await synth.processorInitialized;
  synth.setSystemParameter('voiceCap', VOICE_CAP);
  synth.setSystemParameter('interpolationType', 0);
  for (const part of score.parts) {
    if (part.channel !== 9) synth.programChange(part.channel, part.program);
    synth.controllerChange(part.channel, MIDIControllers.mainVolume, part.volume);
    synth.controllerChange(part.channel, MIDIControllers.pan, part.pan);
    synth.controllerChange(part.channel, MIDIControllers.reverbDepth, 0);
    synth.controllerChange(part.channel, MIDIControllers.chorusDepth, 0);
  }

  const events = scoreEvents(score, totalSamples);
  const reverb = new SmallRoomReverb(opts.reverbMix);
  const gain = opts.masterGain ?? 1;
  const fadeStart = totalSamples - Math.round(FADE_OUT_SEC * SAMPLE_RATE);
  const left = new Float32Array(BLOCK_SAMPLES);
  const right = new Float32Array(BLOCK_SAMPLES);
  let limiterGain = 1;
  let peak = 0;
  let eventIndex = 0;
  const started = performance.now();

  for (let blockStart = 0; blockStart < totalSamples; blockStart += BLOCK_SAMPLES) {
    const length = Math.min(BLOCK_SAMPLES, totalSamples - blockStart);
    left.fill(0);
    right.fill(0);
    for (let offset = 0; offset < length; ) {
      while (eventIndex < events.length && events[eventIndex].sample <= blockStart + offset) {
        const e = events[eventIndex++];
        if (e.on) synth.noteOn(e.channel, e.midi, e.velocity);
        else synth.noteOff(e.channel, e.midi);
      }
      const nextEvent = eventIndex < events.length ? events[eventIndex].sample - blockStart : Infinity;
      const count = Math.min(SYNTH_QUANTUM, length - offset, Math.max(1, nextEvent - offset));
      synth.process(left, right, offset, count);
      offset += count;
    }
    reverb.process(left, right, length);
    // Peak limiter: instant attack, slow release, so loud chords never clip in the encoder.
    for (let i = 0; i < length; i++) {
      const l = left[i] * gain;
      const r = right[i] * gain;
      const level = Math.max(Math.abs(l), Math.abs(r));
      if (level * limiterGain > LIMIT_THRESHOLD) limiterGain = LIMIT_THRESHOLD / level;
      else limiterGain = Math.min(1, 1 - (1 - limiterGain) * LIMIT_RELEASE);
      const sample = blockStart + i;
      const fade = sample >= fadeStart ? Math.max(0, (totalSamples - sample) / (totalSamples - fadeStart)) : 1;
      left[i] = l * limiterGain * fade;
      right[i] = r * limiterGain * fade;
      peak = Math.max(peak, Math.abs(left[i]), Math.abs(right[i]));
    }
    opts.onBlock(length === BLOCK_SAMPLES ? left : left.subarray(0, length), length === BLOCK_SAMPLES ? right : right.subarray(0, length));
    if (opts.onProgress) {
      const done = (blockStart + length) / totalSamples;
      const elapsed = (performance.now() - started) / 1000;
      opts.onProgress(Math.round(done * 100), done > 0 ? (elapsed / done) * (1 - done) : 0);
    }
  }
  return { samples: totalSamples, peak };
}
