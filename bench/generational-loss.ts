/**
 * Generational loss of what airs against the master (issue 18), by a null test (src/engine/audio/null-depth.ts):
 *
 * - before: the master kept as a 128 kbps MP3, decoded by the playout and encoded again for the stream;
 * - after: the master kept as FLAC, decoded by the playout (bit-exact) and encoded once for the stream.
 *
 * Also the FLAC master's size and encoding speed (CPU time). Target: after at least 2 dB deeper than before
 * (exit 1 otherwise). Usage: npx tsx bench/generational-loss.ts [seconds] [seed] [families, default 3]
 */
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { createMp3Stream } from '../src/engine/audio/encode.js';
import { createFlacStream, quantise } from '../src/engine/audio/flac-encode.js';
import { nullDepth } from '../src/engine/audio/null-depth.js';
import { decodePcm, type PcmFormat } from '../src/engine/audio/pcm.js';
import type { AudioQuality } from '../src/engine/types.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const durationSec = Number(process.argv[2] ?? 60);
const seed = Number(process.argv[3] ?? 42);
const familyCount = Number(process.argv[4] ?? 3);

async function decode(bytes: Uint8Array, format: PcmFormat): Promise<[Float32Array, Float32Array]> {
  const left: Float32Array[] = [];
  const right: Float32Array[] = [];
  for await (const chunk of decodePcm(bytes, format)) {
    left.push(chunk.channels[0]);
    right.push(chunk.channels[1] ?? chunk.channels[0]);
  }
  const join = (parts: Float32Array[]) => {
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return [join(left), join(right)];
}

/** What the stream encoder does with a track's PCM: one LAME encode at the stream quality, decoded back. */
async function streamEncode([left, right]: [Float32Array, Float32Array], quality: AudioQuality) {
  const encoder = await createMp3Stream(quality);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < left.length; i += 8192) parts.push(encoder.write(left.subarray(i, i + 8192), right.subarray(i, i + 8192)));
  parts.push(encoder.finish());
  return decode(Buffer.concat(parts), 'mp3');
}

const both = (original: [Float32Array, Float32Array], copy: [Float32Array, Float32Array]) => {
  const l = nullDepth(original[0], copy[0]);
  const r = nullDepth(original[1], copy[1]);
  return { db: (l.db + r.db) / 2, lag: l.lag };
};

let missed = false;
console.log(`generational loss, ${durationSec} s tracks, seed ${seed}; null depth of what airs against the master (lower is closer)`);
console.log('family      | stream | before (MP3 master) | after (FLAC master) | FLAC size  | FLAC encode');
for (const [family, context] of FAMILY_CONTEXTS.slice(0, familyCount)) {
  const track = await generateTrack({ context, seed, maxDurationSec: durationSec, quality: '128kbps', model: emptyAudioModel(), modelVersion: 'bench' });
  const master = await decode(track.master, 'flac');
  const mp3Master = await decode(track.mp3!, 'mp3');
  // The FLAC encoder alone, on the master's samples (CPU time: the machine is shared).
  const cpu = process.cpuUsage();
  const flac = createFlacStream({ sampleRate: 44100, channels: 2, bitsPerSample: 16 });
  const q = [quantise(master[0], 16), quantise(master[1], 16)];
  for (let i = 0; i < q[0].length; i += 8192) flac.write([q[0].subarray(i, i + 8192), q[1].subarray(i, i + 8192)]);
  flac.finish();
  const used = process.cpuUsage(cpu);
  const flacRt = durationSec / ((used.user + used.system) / 1e6);
  for (const quality of ['128kbps', '192kbps'] as const) {
    const before = both(master, await streamEncode(mp3Master, quality));
    const after = both(master, await streamEncode(master, quality));
    // Target: what airs from the FLAC master nulls at least 2 dB deeper than what aired from an MP3 master.
    if (after.db > before.db - 2) missed = true;
    const ratio = track.master.length / (durationSec * 44100 * 4);
    console.log(
      `${family.padEnd(11)} | ${quality.padEnd(6)} | ${before.db.toFixed(1).padStart(8)} dB          | ${after.db.toFixed(1).padStart(8)} dB          | ${(ratio * 100).toFixed(0)}% of PCM | ${flacRt.toFixed(0)}x real time`,
    );
  }
}
if (missed) {
  console.log('target missed: the FLAC master should air at least 2 dB closer to the master than an MP3 master');
  process.exit(1);
}
