/**
 * Listening samples: per genre family one track without lyrics and one with (sung), each written to
 * artifacts/music-samples/ with its vocal stem, cover, waveform, MIDI score and a spectrogram PNG, and
 * measured on the decoded MP3: voice, parts, loudness, true peak and stereo width. The table it prints,
 * and samples.json beside the files, are what the closing notes quote.
 *
 *   npx tsx bench/genre-samples.ts [durationSec=60] [path/to/audio-model.json]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tonejsMidi from '@tonejs/midi';
import { deserialiseAudioModel, emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { composeScore } from '../src/engine/compose/index.js';
import { scoreToMidi, type Part } from '../src/engine/compose/score.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { measureMaster } from './support/master-measure.js';
import { BENCH_LYRICS, FAMILY_CONTEXTS } from './support/mix-fixtures.js';
import { spectrogramPng } from './support/spectrogram.js';

const durationSec = Number(process.argv[2] ?? 60);
const model = process.argv[3] ? deserialiseAudioModel(readFileSync(process.argv[3], 'utf8')) : emptyAudioModel();
const outDir = join('artifacts', 'music-samples');
mkdirSync(outDir, { recursive: true });

/** "bass: Electric Bass (finger)" per part; drums by role. */
function partNames(parts: Part[]): string[] {
  const midi = new tonejsMidi.Midi();
  return parts.map((part) => {
    if (part.channel === 9) return `${part.role}: GM drum kit`;
    const track = midi.addTrack();
    track.instrument.number = part.program;
    return `${part.role}: ${track.instrument.name}`;
  });
}

const report: Record<string, unknown>[] = [];
console.log(`${durationSec} s per sample, 192 kbps, measured on the decoded MP3`);
console.log('sample                 voice            LUFS    dBTP  side<mid  BPM key    parts');
for (const [index, [family, context]] of FAMILY_CONTEXTS.entries()) {
  const seed = 2024 + index;
  const parts = partNames(composeScore({ context, seed, maxDurationSec: durationSec, model }).parts);
  for (const lyrics of [null, BENCH_LYRICS]) {
    const name = `${family}-${lyrics ? 'sung' : 'instrumental'}`;
    const track = await generateTrack({ context, seed, maxDurationSec: durationSec, quality: '192kbps', model, modelVersion: 'samples', lyrics });
    const measured = await measureMaster(track.mp3!);
    writeFileSync(join(outDir, `${name}.mp3`), track.mp3!);
    if (track.vocals) writeFileSync(join(outDir, `${name}.vocals.mp3`), track.vocals.stemMp3);
    writeFileSync(join(outDir, `${name}.cover.png`), track.coverPng);
    writeFileSync(join(outDir, `${name}.spectrogram.png`), spectrogramPng(measured.mid, measured.sampleRate));
    writeFileSync(join(outDir, `${name}.waveform.json`), JSON.stringify(track.waveform));
    writeFileSync(join(outDir, `${name}.mid`), scoreToMidi(composeScore({ context, seed, maxDurationSec: durationSec, model })).toArray());
    const entry = {
      sample: name,
      title: track.title,
      genre: context.genre,
      voice: track.vocals?.voice ?? null,
      parts,
      bpm: track.bpm,
      key: `${track.key} ${track.mode}`,
      lufs: Number(measured.lufs?.toFixed(2)),
      true_peak_dbtp: Number(measured.dbtp?.toFixed(2)),
      side_below_mid_db: Number(measured.sideBelowMidDb.toFixed(1)),
    };
    report.push(entry);
    console.log(
      `${name.padEnd(22)} ${(entry.voice ?? '-').padEnd(14)} ${entry.lufs.toFixed(2).padStart(6)} ${entry.true_peak_dbtp.toFixed(2).padStart(6)} ${entry.side_below_mid_db.toFixed(1).padStart(7)} dB ${String(entry.bpm).padStart(4)} ${entry.key.padEnd(8)} ${parts.join(', ')}`,
    );
  }
}
writeFileSync(join(outDir, 'samples.json'), JSON.stringify(report, null, 2));
console.log(`written to ${outDir}/`);
