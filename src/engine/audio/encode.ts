/**
 * Streaming encoders. MP3 through LAME compiled to WebAssembly (wasm-media-encoders): PCM goes in block by
 * block and compressed frames come out, so a whole track is never held uncompressed. The wasm module is
 * compiled once per process. WAV (wavefile) is for debugging short renders only: it needs all samples.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createEncoder } from 'wasm-media-encoders';
import wavefile from 'wavefile';
import type { AudioQuality } from '../types.js';

let mp3Module: WebAssembly.Module | null = null;

function mp3WasmBytes(): Uint8Array {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));
}

export function bitrateOf(quality: AudioQuality): 128 | 192 | 320 {
  return quality === '320kbps' ? 320 : quality === '192kbps' ? 192 : 128;
}

export interface Mp3Stream {
  /** Encodes one stereo block; returns the MP3 bytes produced so far (a copy, safe to keep). */
  write(left: Float32Array, right: Float32Array): Uint8Array;
  /** Flushes the encoder; returns the last bytes. */
  finish(): Uint8Array;
}

export async function createMp3Stream(quality: AudioQuality, sampleRate = 44100): Promise<Mp3Stream> {
  const encoder = await createEncoder('audio/mpeg', mp3Module ?? mp3WasmBytes(), (module) => {
    mp3Module = module;
  });
  encoder.configure({ channels: 2, sampleRate, bitrate: bitrateOf(quality) });
  // The encoder returns views into wasm memory that the next call overwrites: copy them out.
  return {
    write: (left, right) => encoder.encode([left, right]).slice(),
    finish: () => encoder.finalize().slice(),
  };
}

/** A whole mono signal (e.g. the vocal stem) as a CBR MP3. */
export async function encodeMonoMp3(samples: Float32Array, quality: AudioQuality, sampleRate = 44100): Promise<Buffer> {
  const encoder = await createEncoder('audio/mpeg', mp3Module ?? mp3WasmBytes(), (module) => {
    mp3Module = module;
  });
  encoder.configure({ channels: 1, sampleRate, bitrate: bitrateOf(quality) });
  const chunks: Uint8Array[] = [];
  const block = 8192;
  for (let i = 0; i < samples.length; i += block) chunks.push(encoder.encode([samples.subarray(i, i + block)]).slice());
  chunks.push(encoder.finalize().slice());
  return Buffer.concat(chunks);
}

/** 16-bit stereo WAV of already rendered channels (debugging aid). */
export function encodeWav(left: Float32Array, right: Float32Array, sampleRate = 44100): Buffer {
  const wav = new wavefile.WaveFile();
  const toInt16 = (channel: Float32Array) => Int16Array.from(channel, (v) => Math.round(Math.max(-1, Math.min(1, v)) * 32767));
  wav.fromScratch(2, sampleRate, '16', [toInt16(left), toInt16(right)]);
  return Buffer.from(wav.toBuffer());
}
