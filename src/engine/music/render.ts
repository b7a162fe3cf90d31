/**
 * Renders a Score to a mastered 44.1 kHz stereo signal with spessasynth_core and the FluidR3Mono General
 * MIDI SoundFont. The score's notes become a sample-accurate, humanised event list (mix/humanise.ts); the
 * synth renders each MIDI channel into its own stereo pair (`processSplit`), the mixing desk (mix/mixer.ts)
 * runs each part's bus, the vocal and the reverb, and the mix is kept as one float buffer (180 s stereo is
 * 63 MB) so the master chain (mix/master.ts) can measure its loudness and bring it to -14 LUFS under a
 * -1 dBTP ceiling before any of it is encoded. The mastered blocks go to `onBlock` in order.
 *
 * Cost choices (see README): built-in effects off (our own reverb is cheaper), a voice cap, linear
 * interpolation.
 */
import { MIDIControllers, SpessaSynthProcessor } from 'spessasynth_core';
import type { ProgressFn } from '../types.js';
import type { Score } from '../compose/score.js';
import { secondsPerBeat } from '../compose/score.js';
import type { GenreFamily } from '../compose/style.js';
import { partFeel, type Humanise } from '../mix/humanise.js';
import { masterBuffer } from '../mix/master.js';
import { Mixer } from '../mix/mixer.js';
import { mixPlan } from '../mix/plan.js';
import { applyGenreEq } from '../mix/tonal-balance.js';
import { applyMatchedMasterEq } from '../mix/tonal-match.js';
import { loadSoundBank } from './soundfont.js';

export const SAMPLE_RATE = 44100;
const SYNTH_QUANTUM = 128;
const BLOCK_SAMPLES = 8192;
const VOICE_CAP = 48;
const FADE_OUT_SEC = 1.5;
/**
 * The master's targets: the station's level (issue 11), and a ceiling under -1 dBTP with room for the MP3
 * encoder's overshoot: up to about 1 dB since the air stage (mix/air.ts) puts content above LAME's
 * 128 kbps low-pass (about 17 kHz), which the encoder takes off (folk with a vocal decoded at -0.97 dBTP
 * from a -2 dBTP float master).
 */
export const TARGET_LUFS = -14;
const CEILING_DBTP = -2.5;
/** Outputs handed to processSplit: channel c renders into pair c (channels 0-9 cover the score's parts). */
const OUTPUT_PAIRS = 10;
/** Share of the progress bar taken by synthesis and mixing; the master passes take the rest. */
const RENDER_SHARE = 0.9;

export interface NoteEvent {
  sample: number;
  on: boolean;
  channel: number;
  midi: number;
  velocity: number;
}

export interface RenderOptions {
  durationSec: number;
  family: GenreFamily;
  seed: number;
  /** Integrated loudness the mastered float signal is brought to (default TARGET_LUFS). */
  targetLufs?: number;
  /** The vocal stem (mono, SAMPLE_RATE), mixed as the vocal bus; null or absent for an instrumental. */
  vocal?: Float32Array | null;
  /**
   * Bring the mix within tolerance of the family's reference curve before mastering (mix/tonal-balance.ts;
   * default true). Off only for measuring what the correction does (bench/tonal-balance.ts).
   */
  tonalCorrection?: boolean;
  /**
   * After the family's EQ and the song's colour, pull the song's bands that stand beyond a dead band off
   * the curve back to its edge (mix/tonal-match.ts; default true, only with tonalCorrection). Off only for
   * measuring it.
   */
  tonalMatch?: boolean;
  onBlock(left: Float32Array, right: Float32Array): void;
  onProgress?: ProgressFn;
}

/**
 * Note-on/off events in sample time. Repeated pitches on a channel are cut at the next onset (on the grid,
 * before humanising, so a moved note never cuts the next one). With `humanise`, onsets and velocities are
 * moved per note (mix/humanise.ts); a note keeps its length.
 */
export function scoreEvents(score: Score, totalSamples: number, humanise?: Humanise | null): NoteEvent[] {
  const spb = secondsPerBeat(score);
  const events: NoteEvent[] = [];
  for (const part of score.parts) {
    const feel = partFeel(humanise, part.channel, SAMPLE_RATE);
    const byPitch = new Map<number, { start: number; end: number; velocity: number; shift: number }[]>();
    // Offsets are drawn in score order, so they do not depend on how notes are grouped below.
    for (const note of part.notes) {
      const start = Math.round(note.startBeat * spb * SAMPLE_RATE);
      const end = Math.round((note.startBeat + note.durationBeats) * spb * SAMPLE_RATE);
      if (start >= totalSamples) continue;
      const list = byPitch.get(note.midi) ?? byPitch.set(note.midi, []).get(note.midi)!;
      list.push({ start, end: Math.max(start + 1, end), velocity: feel.velocity(note.velocity), shift: feel.offset() });
    }
    for (const [midi, notes] of [...byPitch].sort((a, b) => a[0] - b[0])) {
      notes.sort((a, b) => a.start - b.start);
      notes.forEach((n, i) => {
        const next = notes[i + 1];
        if (next && next.start === n.start) return; // doubled note: keep one
        const on = Math.min(totalSamples - 1, Math.max(0, n.start + n.shift));
        const nextOn = next ? Math.max(0, next.start + next.shift) : Infinity;
        const off = Math.max(on + 1, Math.min(n.end + n.shift, next ? next.start + n.shift : Infinity, nextOn, totalSamples));
        events.push({ sample: on, on: true, channel: part.channel, midi, velocity: n.velocity });
        events.push({ sample: off, on: false, channel: part.channel, midi, velocity: 0 });
      });
    }
  }
  // Offs before ons at the same instant, then a fixed order: determinism does not rely on sort stability.
  return events.sort((a, b) => a.sample - b.sample || Number(a.on) - Number(b.on) || a.channel - b.channel || a.midi - b.midi);
}

export async function renderScore(score: Score, opts: RenderOptions): Promise<{ samples: number; gainDb: number; lufs: number | null }> {
  const totalSamples = Math.round(opts.durationSec * SAMPLE_RATE);
  const synth = new SpessaSynthProcessor(SAMPLE_RATE, { maxBufferSize: SYNTH_QUANTUM, effectsEnabled: false, eventsEnabled: false });
  synth.soundBankManager.addSoundBank(loadSoundBank(), 'gm');
  await synth.processorInitialized;
  synth.setSystemParameter('voiceCap', VOICE_CAP);
  synth.setSystemParameter('interpolationType', 0);
  // The song's production (mix/plan.ts): kit, room, tones drawn from the seed.
  const plan = mixPlan(opts.family, opts.seed);
  for (const part of score.parts) {
    synth.programChange(part.channel, part.channel === 9 ? plan.drumKit : part.program);
    synth.controllerChange(part.channel, MIDIControllers.mainVolume, part.volume);
    // Every part renders centred: placement is the mix's job (mix/stereo.ts).
    synth.controllerChange(part.channel, MIDIControllers.pan, 64);
    synth.controllerChange(part.channel, MIDIControllers.reverbDepth, 0);
    synth.controllerChange(part.channel, MIDIControllers.chorusDepth, 0);
  }

  const events = scoreEvents(score, totalSamples, { seed: opts.seed, family: opts.family });
  const mixer = new Mixer({ parts: score.parts, plan, sampleRate: SAMPLE_RATE, blockSamples: BLOCK_SAMPLES, vocal: opts.vocal ?? null });
  const outputs = Array.from({ length: OUTPUT_PAIRS }, () => [new Float32Array(BLOCK_SAMPLES), new Float32Array(BLOCK_SAMPLES)]);
  const effects = new Float32Array(BLOCK_SAMPLES); // unused: effects are off
  const mixL = new Float32Array(totalSamples);
  const mixR = new Float32Array(totalSamples);
  let eventIndex = 0;
  const started = performance.now();
  const progress = (done: number) => {
    if (!opts.onProgress) return;
    const elapsed = (performance.now() - started) / 1000;
    opts.onProgress(Math.round(done * 100), done > 0 ? (elapsed / done) * (1 - done) : 0);
  };

  for (let blockStart = 0; blockStart < totalSamples; blockStart += BLOCK_SAMPLES) {
    const length = Math.min(BLOCK_SAMPLES, totalSamples - blockStart);
    for (const [l, r] of outputs) {
      l.fill(0);
      r.fill(0);
    }
    for (let offset = 0; offset < length;) {
      while (eventIndex < events.length && events[eventIndex].sample <= blockStart + offset) {
        const e = events[eventIndex++];
        if (e.on) synth.noteOn(e.channel, e.midi, e.velocity);
        else synth.noteOff(e.channel, e.midi);
      }
      const nextEvent = eventIndex < events.length ? events[eventIndex].sample - blockStart : Infinity;
      const count = Math.min(SYNTH_QUANTUM, length - offset, Math.max(1, nextEvent - offset));
      synth.processSplit(outputs, effects, effects, offset, count);
      offset += count;
    }
    mixer.process(outputs, blockStart, length, mixL.subarray(blockStart, blockStart + length), mixR.subarray(blockStart, blockStart + length));
    progress(((blockStart + length) / totalSamples) * RENDER_SHARE);
  }

  if (opts.tonalCorrection !== false) {
    if (opts.tonalMatch === false) applyGenreEq(mixL, mixR, opts.family, opts.seed, SAMPLE_RATE, BLOCK_SAMPLES);
    else applyMatchedMasterEq(mixL, mixR, opts.family, opts.seed, SAMPLE_RATE, BLOCK_SAMPLES);
  }

  let emitted = 0;
  const mastered = masterBuffer(
    mixL,
    mixR,
    { sampleRate: SAMPLE_RATE, targetLufs: opts.targetLufs ?? TARGET_LUFS, ceilingDbtp: CEILING_DBTP, fadeOutSec: FADE_OUT_SEC },
    (l, r) => {
      opts.onBlock(l, r);
      emitted += l.length;
      progress(RENDER_SHARE + (emitted / totalSamples) * (1 - RENDER_SHARE));
    },
  );
  return { samples: totalSamples, gainDb: mastered.gainDb, lufs: mastered.lufs };
}
