/**
 * composeScore: context + seed + audio model -> Score. Steps, each with its own derived random stream so
 * that changing one part never reshuffles the others:
 *
 *   style lookup -> tempo, mode, tonic -> form -> progressions per section kind -> parts
 */
import { Note } from 'tonal';
import { chordIndex } from './chord-vocabulary.js';
import type { MusicContext } from '../types.js';
import { Rng } from '../random.js';
import { type AudioModel, meanAndStd, styleFor } from './audio-model.js';
import {
  type ChordVoice,
  chooseMode,
  keyLock,
  chooseTempo,
  chooseTonic,
  realiseChord,
  sampleProgression,
  scaleMidiPitchClasses,
  tonicChordIndex,
} from './harmony.js';
import { planSections, songLengthSec } from './structure.js';
import { arrangeBySection } from './arrangement.js';
import { MAX_NOVELTY_CANDIDATES, NOVELTY_BOUND, fingerprintScore, noveltyAgainst, symbolicCopy, symbolicFingerprint } from './novelty.js';
import { orchestrationFor } from './style.js';
import type { Part, Score, Section, SectionName } from './score.js';
import type { ChordSpan, PartContext } from './timeline.js';
import { composeBass } from './bass.js';
import { composeDrums } from './drums.js';
import { composeMelody } from './melody.js';
import { composeChords, composePad } from './accompaniment.js';

export interface ComposeRequest {
  context: MusicContext;
  seed: number;
  maxDurationSec: number;
  model: AudioModel;
}

/** Genre families whose listeners expect one locked chord loop per section, in the key. */
const LOOP_FAMILIES = new Set(['lofi', 'electronic', 'pop']);
/** Families whose chords carry ninths (on top of their sevenths) where the ninth is in the key. */
const NINTH_FAMILIES = new Set(['lofi', 'jazz']);

/** Seconds left after the last bar for instruments to ring out. */
export const RING_OUT_SEC = 2;

/**
 * The score for a request. Without training references (an untrained model) this is the first candidate;
 * with them, candidates are drawn until one is predicted not to copy any training track (novelty.ts), and the
 * most novel one is kept when none clears the bound. Candidate k > 0 draws its tempo, key, harmony, density
 * and parts from streams derived from the seed and k, so the result still depends on the request alone.
 */
export function composeScore(req: ComposeRequest): Score {
  const references = req.model.references ?? [];
  if (references.length === 0) return composeCandidate(req, 0);
  let best: { score: Score; similarity: number; copy: boolean } | null = null;
  const symbolic = references.some((r) => r.symbols);
  for (let k = 0; k < MAX_NOVELTY_CANDIDATES; k++) {
    // A model that learned from references draws every song's instruments from the pools: the family's
    // default sound is what its training tracks share most (bench/originality.ts: the default-orchestra
    // candidate scored lowest against the catalog in every seed measured).
    const score = composeCandidate(req, k, true);
    const { similarity } = noveltyAgainst(fingerprintScore(score), references);
    // A candidate that copies a training melody, or its loops in its form, loses to any that does not.
    const copy = symbolic && symbolicCopy(symbolicFingerprint(score), references).copy;
    if (best === null || (best.copy && !copy) || (best.copy === copy && similarity < best.similarity)) best = { score, similarity, copy };
    if (similarity <= NOVELTY_BOUND && !copy) break;
  }
  return best!.score;
}

export function composeCandidate(req: ComposeRequest, candidate: number, pooledOrchestration = candidate > 0): Score {
  const { context, model } = req;
  // Candidate 0 keeps the streams of a composer without references (same request => same bytes as before).
  const seed = candidate === 0 ? req.seed : Rng.derive(req.seed, `novelty-candidate:${candidate}`).nextUint32();
  const style = styleFor(model, context.genre, context.mood);
  const counts = style.counts;
  // Resampled candidates flatten the learned tempo and key distributions (harmony.ts temper()).
  const tempered = candidate > 0;
  const bpm = chooseTempo(context, style, Rng.derive(seed, 'tempo'), tempered);
  const mode = chooseMode(context, style, Rng.derive(seed, 'mode'));
  const tonic = chooseTonic(mode, style, Rng.derive(seed, 'tonic'), tempered);
  // Candidates after the first also draw their instruments from the family's pools (style.ts).
  const orchestration = orchestrationFor(context, pooledOrchestration ? Rng.derive(seed, 'orchestration') : undefined);

  const barSec = (4 * 60) / bpm;
  // The song's own length under the request's maximum (structure.ts), from the request's seed: every candidate keeps it.
  const lengthSec = songLengthSec(req.maxDurationSec, req.seed);
  const totalBars = Math.max(1, Math.floor(Math.max(barSec, lengthSec - RING_OUT_SEC) / barSec));
  // Songs of a trained model (pooled orchestration) also draw their form and intro/outro lengths from the
  // family's forms (structure.ts FAMILY_FORMS).
  const sections = planSections(totalBars, pooledOrchestration ? Rng.derive(seed, 'form') : undefined, orchestration.family);

  // Harmonic rhythm learned as mean beats per chord; an empty model draws it uniformly.
  const harmonyRng = Rng.derive(seed, 'harmony');
  const meanBeats = counts.chordChanges > 0 ? counts.chordBeats / counts.chordChanges : null;
  const learnedBeats = meanBeats === null ? harmonyRng.pick([2, 4, 8]) : meanBeats < 3 ? 2 : meanBeats > 6 ? 8 : 4;
  // Loop genres lock one loop of 2-4 chords per section, a chord a bar or slower, in the key plus at most
  // two borrowed chords per song (harmony.ts keyLock).
  const loopGenre = LOOP_FAMILIES.has(orchestration.family);
  const beatsPerChord = loopGenre ? Math.max(4, learnedBeats) : learnedBeats;
  const loopChords = Math.max(1, 16 / beatsPerChord);
  const lock = loopGenre ? keyLock(mode) : undefined;
  const ninthsIn = NINTH_FAMILIES.has(orchestration.family) ? mode : undefined;
  const loops = new Map<SectionName, number[]>();
  let previous: number | null = null;
  for (const name of ['verse', 'chorus', 'bridge'] as const) {
    const loop = sampleProgression(style, mode, loopChords, previous, harmonyRng, { startOnTonic: name !== 'bridge', keyLock: lock });
    loops.set(name, loop);
    previous = loop[loop.length - 1];
  }
  loops.set('intro', loops.get('verse')!);
  loops.set('outro', loops.get('chorus')!);

  const spans: ChordSpan[] = [];
  const chordsPerBar: string[] = [];
  for (const section of sections) {
    const loop = loops.get(section.name)!;
    for (let beat = 0, i = 0; beat < section.bars * 4; beat += beatsPerChord, i++) {
      const chord = realiseChord(loop[i % loop.length], tonic, orchestration.sevenths, ninthsIn);
      const span: ChordSpan = { chord, startBeat: section.startBar * 4 + beat, beats: Math.min(beatsPerChord, section.bars * 4 - beat) };
      spans.push(span);
    }
  }
  const finalSection = sections[sections.length - 1];
  const finalLoop = loops.get(finalSection.name)!;
  // Minor keys end on the major V (harmonic minor's leading tone): a minor v before the last tonic, in a
  // short song with a chord a bar, made the key a finder hears the v's (test/engine/features/generated-track.test.ts).
  const cadenceIndex = mode === 'minor' ? chordIndex({ degree: 7, minor: false }) : finalLoop[finalLoop.length - 1];
  endOnCadence(
    spans,
    finalSection,
    realiseChord(cadenceIndex, tonic, orchestration.sevenths, ninthsIn),
    realiseChord(tonicChordIndex(mode), tonic, orchestration.sevenths, ninthsIn),
  );
  for (let bar = 0; bar < totalBars; bar++) chordsPerBar.push(spans.filter((s) => s.startBeat <= bar * 4).at(-1)!.chord.symbol);

  const energyStats = meanAndStd(counts.energySum, counts.energySquaredSum, counts.tracks);
  const energy = energyStats ? 0.7 * context.energy_level + 0.3 * energyStats.mean : context.energy_level;
  const onsetStats = meanAndStd(counts.onsetRateSum, counts.onsetRateSquaredSum, counts.tracks);
  const melodyDensity = onsetStats ? Math.min(2, Math.max(0.35, onsetStats.mean / (bpm / 60) / 2)) : 0.5 + Rng.derive(seed, 'density').next();

  const partContext = (label: string): PartContext => ({
    sections,
    spans,
    scale: scaleMidiPitchClasses(tonic, mode),
    tonicPitchClass: Note.chroma(tonic)!,
    orchestration,
    energy: Math.min(1, Math.max(0, energy)),
    melodyDensity,
    rng: Rng.derive(seed, label),
  });

  const written: Part[] = [
    { role: 'chords', channel: 0, program: orchestration.chordProgram, volume: 88, pan: 48, notes: composeChords(partContext('chords')) },
    { role: 'bass', channel: 1, program: orchestration.bassProgram, volume: 100, pan: 64, notes: composeBass(partContext('bass')) },
    { role: 'melody', channel: 2, program: orchestration.melodyProgram, volume: 92, pan: 76, notes: composeMelody(partContext('melody')) },
    { role: 'pad', channel: 3, program: orchestration.padProgram ?? 0, volume: 64, pan: 64, notes: composePad(partContext('pad')) },
    { role: 'drums', channel: 9, program: 0, volume: 96, pan: 64, notes: composeDrums(partContext('drums')) },
  ];
  const parts = arrangeBySection(written, sections, orchestration.family);
  const harmony = { spans, scale: scaleMidiPitchClasses(tonic, mode) };
  return { bpm, key: tonic, mode, beatsPerBar: 4, sections, chordsPerBar, totalBeats: totalBars * 4, parts, harmony };
}

/**
 * The song ends on a full cadence: the final chord is the tonic, and the one before it the final loop's
 * cadence chord (V or IV / iv). A track is cut to its duration wherever its loop happens to be, so without
 * this it ends on any chord, and the end of a piece is where listeners (and key finders) place its key.
 */
function endOnCadence(spans: ChordSpan[], finalSection: Section, cadenceChord: ChordVoice, tonicChord: ChordVoice): void {
  const inFinal = spans.filter((s) => s.startBeat >= finalSection.startBar * 4);
  inFinal[inFinal.length - 1].chord = tonicChord;
  if (inFinal.length >= 2) inFinal[inFinal.length - 2].chord = cadenceChord;
}
