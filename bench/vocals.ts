/**
 * Vocal rendering speed: the sung part of a 180 s track with lyrics on this process's single thread,
 * as CPU time and a real-time factor, step by step (dictionary load, pronunciation + vocal melody, stem
 * synthesis, stem MP3), then a whole generateTrack with and without lyrics for comparison.
 *
 *   npx tsx bench/vocals.ts [durationSec]
 */
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { composeScore } from '../src/engine/compose/index.js';
import { composeVocalMelody } from '../src/engine/compose/vocal-melody.js';
import { encodeMonoMp3 } from '../src/engine/audio/encode.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import type { MusicContext, TrackLyrics } from '../src/engine/types.js';
import { chooseVoice, renderVocalStem } from '../src/engine/voice/index.js';
import { createPronouncer } from '../src/engine/pronounce/index.js';

const durationSec = Number(process.argv[2] ?? 180);
const context: MusicContext = {
  genre: 'pop',
  subgenre: 'indie pop',
  mood: ['happy'],
  lifestyle: 'chill',
  tempo_range: [100, 108],
  key_preference: 'major',
  energy_level: 0.6,
};
const lyrics: TrackLyrics = {
  language: 'en',
  order: ['verse_1', 'chorus', 'verse_2', 'chorus', 'bridge', 'chorus'],
  sections: {
    verse_1:
      'Streetlights whisper through the rain tonight\nI keep your letters in a paper box\nThe city hums a song I used to know\nAnd every window holds a little light',
    chorus: 'Stay with me until the morning\nHold the night and never let it go\nWe are gold beneath the silver sky\nStay with me until the morning',
    verse_2:
      'The radio is playing something slow\nYour shadow dances on the kitchen wall\nI never thought that I would miss the sound\nOf footsteps walking softly down the hall',
    bridge: 'Oh the river runs\nAnd the river knows\nWhere the lonely go\nWhen the morning comes',
  },
};

function cpuSeconds<T>(fn: () => T): [T, number] {
  const before = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(before);
  return [result, (used.user + used.system) / 1e6];
}

async function cpuSecondsAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const before = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(before);
  return [result, (used.user + used.system) / 1e6];
}

const [pronouncer, loadSec] = await cpuSecondsAsync(() => createPronouncer('en'));
const score = composeScore({ context, seed: 42, maxDurationSec: durationSec, model: emptyAudioModel() });
const voice = chooseVoice('pop', 42);
const [melody, composeSec] = cpuSeconds(() => {
  const sections = Object.fromEntries(Object.entries(lyrics.sections).map(([key, text]) => [key, text.split('\n').map((line) => pronouncer.line(line))]));
  return composeVocalMelody(score, { language: 'en', sections, order: lyrics.order }, { range: voice.range, seed: 42, swing: 0 });
});
renderVocalStem(melody, { bpm: score.bpm, voice, seed: 1, durationSec: 10, sampleRate: 44100 }); // warm-up (JIT)
const [stem, synthSec] = cpuSeconds(() => renderVocalStem(melody, { bpm: score.bpm, voice, seed: 42, durationSec, sampleRate: 44100 }));
const [, mp3Sec] = await cpuSecondsAsync(() => encodeMonoMp3(stem.samples, '128kbps'));
const sungSec = stem.timeline.lines.reduce((s, l) => s + l.endSec - l.startSec, 0);
const vocalSec = composeSec + synthSec + mp3Sec;
console.log(
  `${durationSec}s track, ${score.bpm} BPM, voice ${voice.id}: ${melody.lines.length} lines, ${melody.syllables.length} syllables, ${melody.notes.length} notes, ${sungSec.toFixed(0)} s sung`,
);
console.log(
  `CPU: dictionary load ${(loadSec * 1000).toFixed(0)} ms (once per worker) | pronounce + melody ${(composeSec * 1000).toFixed(0)} ms | synthesis ${(synthSec * 1000).toFixed(0)} ms | stem MP3 ${(mp3Sec * 1000).toFixed(0)} ms`,
);
console.log(
  `vocal rendering: ${vocalSec.toFixed(2)} s CPU -> ${(durationSec / vocalSec).toFixed(0)}x real time on one core (synthesis alone ${(durationSec / synthSec).toFixed(0)}x)`,
);

for (const withLyrics of [false, true]) {
  const [track, sec] = await cpuSecondsAsync(() =>
    generateTrack({
      context,
      seed: 42,
      maxDurationSec: durationSec,
      quality: '128kbps',
      model: emptyAudioModel(),
      modelVersion: 'bench',
      lyrics: withLyrics ? lyrics : null,
    }),
  );
  console.log(
    `generateTrack ${withLyrics ? 'with' : 'without'} vocals: ${sec.toFixed(2)} s CPU -> ${(durationSec / sec).toFixed(1)}x real time (${JSON.stringify(Object.fromEntries(Object.entries(track.timings).map(([k, v]) => [k, Math.round(v)])))})`,
  );
}
