/**
 * Feature extraction throughput on one core: seconds of audio analysed per second of wall time.
 *   npx tsx bench/features.ts [seconds-of-audio]
 * Measures extractFeatures on PCM (frames + tempo + key + chords) and extractFeaturesFromFile on an MP3 of
 * the same audio (adds MP3 decoding and resampling 44.1 kHz -> 22.05 kHz).
 */

import { createMp3Encoder } from 'wasm-media-encoders';
import { WORKING_SAMPLE_RATE } from '../src/engine/features/decode.js';
import { extractFeatures, extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { Rng } from '../src/engine/random.js';

const seconds = Number(process.argv[2] ?? 60);

/** Music-like test signal: chords of additive tones, a kick on each beat, noise hats on eighths. */
function testSignal(durationSec: number, sampleRate: number): Float32Array {
  const out = new Float32Array(Math.round(durationSec * sampleRate));
  const rng = new Rng(42);
  const beat = 60 / 122;
  const chords = [
    [57, 60, 64],
    [62, 65, 69],
    [64, 68, 71],
    [57, 60, 64],
  ];
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    const chord = chords[Math.floor(t / (4 * beat)) % chords.length];
    let v = 0;
    for (const midi of chord) {
      const f = 440 * 2 ** ((midi - 69) / 12);
      for (let h = 1; h <= 4; h++) v += Math.sin(2 * Math.PI * f * h * t) / (h * 8);
    }
    const sinceBeat = t % beat;
    v += 0.6 * Math.sin(2 * Math.PI * 55 * sinceBeat) * Math.exp(-sinceBeat * 10);
    const sinceHat = t % (beat / 2);
    v += 0.08 * (rng.next() * 2 - 1) * Math.exp(-sinceHat * 80);
    out[i] = 0.5 * v;
  }
  return out;
}

async function encodeMp3(pcm: Float32Array, sampleRate: 44100): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate, channels: 2, bitrate: 192 });
  const parts: Uint8Array[] = [];
  for (let i = 0; i < pcm.length; i += sampleRate) {
    const slice = pcm.subarray(i, i + sampleRate);
    parts.push(encoder.encode([slice, slice]).slice());
  }
  parts.push(encoder.finalize().slice());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function time<T>(run: () => T): [T, number] {
  const start = performance.now();
  const result = run();
  return [result, (performance.now() - start) / 1000];
}

const pcm = testSignal(seconds, WORKING_SAMPLE_RATE);
extractFeatures(pcm.subarray(0, WORKING_SAMPLE_RATE * 5), WORKING_SAMPLE_RATE); // warm up the JIT
const [features, pcmSec] = time(() => extractFeatures(pcm, WORKING_SAMPLE_RATE));
console.log(`extractFeatures (PCM, ${seconds} s at ${WORKING_SAMPLE_RATE} Hz): ${pcmSec.toFixed(2)} s -> ${(seconds / pcmSec).toFixed(1)}x real time`);
console.log(`  detected ${features.tempoBpm} BPM (true 122), key ${features.key} ${features.mode} (true A minor), ${features.beatChords.length} beat chords`);

const mp3 = await encodeMp3(testSignal(seconds, 44100), 44100);
const start = performance.now();
await extractFeaturesFromFile(mp3, 'mp3');
const mp3Sec = (performance.now() - start) / 1000;
console.log(`extractFeaturesFromFile (MP3 192 kbps 44.1 kHz stereo, ${seconds} s): ${mp3Sec.toFixed(2)} s -> ${(seconds / mp3Sec).toFixed(1)}x real time`);
