import { describe, expect, it } from 'vitest';
import { composeScore } from '../../../src/engine/compose/index.js';
import { scoreToMidi } from '../../../src/engine/compose/score.js';
import { songLengthSec } from '../../../src/engine/compose/structure.js';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { trainAudioModel } from '../../../src/engine/music/audio-model-training.js';
import { LOFI_CONTEXT, SYNTHWAVE_CONTEXT, syntheticCatalog } from './helpers.js';

describe('composer', () => {
  it('keeps the tempo inside tempo_range and the mode of key_preference, for many seeds', () => {
    for (let seed = 0; seed < 30; seed++) {
      for (const context of [LOFI_CONTEXT, SYNTHWAVE_CONTEXT]) {
        const score = composeScore({ context, seed, maxDurationSec: 60, model: emptyAudioModel() });
        expect(score.bpm).toBeGreaterThanOrEqual(context.tempo_range[0]);
        expect(score.bpm).toBeLessThanOrEqual(context.tempo_range[1]);
        expect(score.mode).toBe(context.key_preference);
      }
    }
  });

  it("lays out the full song form over a 3 minute track and fills the song's length", () => {
    const score = composeScore({ context: LOFI_CONTEXT, seed: 5, maxDurationSec: 180, model: emptyAudioModel() });
    // The song's own length under the 180 s maximum (structure.ts songLengthSec).
    const length = songLengthSec(180, 5);
    expect(score.sections.map((s) => s.name)).toEqual(['intro', 'verse', 'chorus', 'verse', 'chorus', 'bridge', 'chorus', 'outro']);
    const bars = score.sections.reduce((n, s) => n + s.bars, 0);
    expect(score.totalBeats).toBe(bars * 4);
    const musicSec = (score.totalBeats * 60) / score.bpm;
    expect(musicSec).toBeLessThanOrEqual(length);
    expect(musicSec).toBeGreaterThan(length - 2 - (4 * 60) / score.bpm - 0.01);
    expect(score.parts.map((p) => p.role).sort()).toEqual(['bass', 'chords', 'drums', 'melody', 'pad']);
  });

  it('repeats the chorus melody motif and chords across choruses', () => {
    const score = composeScore({ context: SYNTHWAVE_CONTEXT, seed: 11, maxDurationSec: 180, model: emptyAudioModel() });
    const choruses = score.sections.filter((s) => s.name === 'chorus');
    const melody = score.parts.find((p) => p.role === 'melody')!.notes;
    const firstTwoBars = (startBar: number) =>
      melody.filter((n) => n.startBeat >= startBar * 4 && n.startBeat < startBar * 4 + 8).map((n) => [n.midi, +(n.startBeat - startBar * 4).toFixed(3)]);
    expect(firstTwoBars(choruses[0].startBar).length).toBeGreaterThan(1);
    expect(firstTwoBars(choruses[1].startBar)).toEqual(firstTwoBars(choruses[0].startBar));
    expect(score.chordsPerBar.slice(choruses[1].startBar, choruses[1].startBar + 4)).toEqual(
      score.chordsPerBar.slice(choruses[0].startBar, choruses[0].startBar + 4),
    );
  });

  it('puts chord tones on strong beats of the melody', () => {
    const score = composeScore({ context: LOFI_CONTEXT, seed: 2, maxDurationSec: 120, model: emptyAudioModel() });
    const melody = score.parts.find((p) => p.role === 'melody')!.notes;
    const chords = score.parts.find((p) => p.role === 'chords')!.notes;
    const strong = melody.filter((n) => Math.abs(n.startBeat % 4) < 1e-9);
    expect(strong.length).toBeGreaterThan(10);
    for (const note of strong) {
      const sounding = new Set(chords.filter((c) => c.startBeat <= note.startBeat + 1e-9 && c.startBeat + 4 > note.startBeat).map((c) => c.midi % 12));
      expect(sounding.has(note.midi % 12)).toBe(true);
    }
  });

  it('follows the learned chord habits of the genre', async () => {
    const { model } = await trainAudioModel(syntheticCatalog({ tracksPerGenre: 12, seed: 3 }), {
      epochs: 10,
      learningRate: 0.05,
      batchSize: 4,
      warmupSteps: 5,
    });
    // pop was trained on I-V-vi-IV; count how many adjacent bar pairs follow that loop.
    const context = { ...SYNTHWAVE_CONTEXT, genre: 'pop', mood: ['happy'] };
    let loopMoves = 0;
    let moves = 0;
    for (let seed = 0; seed < 10; seed++) {
      const score = composeScore({ context, seed, maxDurationSec: 90, model });
      const tonic = score.key;
      const names = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
      const degree = (symbol: string) => (names.indexOf(symbol.replace(/m$/, '')) - names.indexOf(tonic) + 12) % 12;
      const next: Record<number, number> = { 0: 7, 7: 9, 9: 5, 5: 0 };
      const bars = score.chordsPerBar;
      for (let i = 1; i < bars.length; i++) {
        if (bars[i] === bars[i - 1]) continue;
        moves++;
        if (next[degree(bars[i - 1])] === degree(bars[i])) loopMoves++;
      }
    }
    expect(loopMoves / moves).toBeGreaterThan(0.5);
  });

  it('is deterministic and converts to a MIDI file', () => {
    const a = composeScore({ context: LOFI_CONTEXT, seed: 8, maxDurationSec: 30, model: emptyAudioModel() });
    const b = composeScore({ context: LOFI_CONTEXT, seed: 8, maxDurationSec: 30, model: emptyAudioModel() });
    expect(b).toEqual(a);
    const midi = scoreToMidi(a);
    expect(midi.tracks.length).toBe(a.parts.length);
    expect(midi.toArray().length).toBeGreaterThan(100);
  });
});
