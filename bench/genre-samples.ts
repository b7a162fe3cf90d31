/**
 * Listening samples: one generated track per genre family, written to artifacts/music-samples/ (gitignored)
 * with its cover, waveform JSON and MIDI score, to judge the composer and mix by ear.
 *
 *   npx tsx bench/genre-samples.ts [durationSec] [path/to/audio-model.json]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { composeScore } from '../src/engine/music/compose/index.js';
import { scoreToMidi } from '../src/engine/music/compose/score.js';
import { deserialiseAudioModel, emptyAudioModel } from '../src/engine/music/audio-model.js';
import type { MusicContext } from '../src/engine/types.js';

const durationSec = Number(process.argv[2] ?? 60);
const model = process.argv[3] ? deserialiseAudioModel(readFileSync(process.argv[3], 'utf8')) : emptyAudioModel();
const outDir = join('artifacts', 'music-samples');
mkdirSync(outDir, { recursive: true });

const samples: Record<string, MusicContext> = {
  'lofi-chill-hip-hop': { genre: 'lo-fi hip hop', subgenre: 'chillhop', mood: ['calm', 'dreamy'], lifestyle: 'focus', tempo_range: [72, 88], key_preference: 'minor', energy_level: 0.4 },
  'synthwave-electronic': { genre: 'synthwave', subgenre: 'retro electronic', mood: ['energetic'], lifestyle: 'party', tempo_range: [108, 124], key_preference: 'minor', energy_level: 0.8 },
  'acoustic-folk': { genre: 'folk', subgenre: 'acoustic', mood: ['happy'], lifestyle: 'chill', tempo_range: [90, 110], key_preference: 'major', energy_level: 0.5 },
  'jazz-soul': { genre: 'jazz', subgenre: 'soul jazz', mood: ['romantic'], lifestyle: 'chill', tempo_range: [84, 104], key_preference: 'any', energy_level: 0.5 },
  ambient: { genre: 'ambient', subgenre: 'drone', mood: ['calm'], lifestyle: 'sleep', tempo_range: [60, 76], key_preference: 'major', energy_level: 0.2 },
};

for (const [index, [name, context]] of Object.entries(samples).entries()) {
  const seed = 2024 + index;
  const started = performance.now();
  const track = await generateTrack({ context, seed, maxDurationSec: durationSec, quality: '192kbps', model, modelVersion: 'samples', outputPath: join(outDir, `${name}.mp3`) });
  writeFileSync(join(outDir, `${name}.png`), track.coverPng);
  writeFileSync(join(outDir, `${name}.waveform.json`), JSON.stringify(track.waveform));
  writeFileSync(join(outDir, `${name}.mid`), scoreToMidi(composeScore({ context, seed, maxDurationSec: durationSec, model })).toArray());
  const peak = Math.max(...track.waveform.data.map(Math.abs)) / 127;
  const seconds = (performance.now() - started) / 1000;
  console.log(`${name}: "${track.title}" ${track.bpm} BPM ${track.key} ${track.mode}, peak ${peak.toFixed(2)}, ${seconds.toFixed(1)} s`);
}
console.log(`written to ${outDir}/`);
