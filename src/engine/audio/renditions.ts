/**
 * Stream renditions of an uploaded master: one decode pass feeds one LAME encoder per bitrate (the radio's
 * MP3 encoder, engine/music/encode.ts), so every rendition comes from the master itself, never from another
 * lossy copy. LAME's MPEG-1 Layer III takes 32, 44.1 or 48 kHz; a master at another rate is resampled to
 * 44.1 kHz. Mono masters play on both channels; surround masters are folded down to stereo (ITU-R BS.775).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AudioQuality } from '../types.js';
import { StreamingResampler } from '../features/resample.js';
import { createMp3Stream, type Mp3Stream } from '../music/encode.js';
import { decodePcm, type PcmFormat } from './pcm.js';

export const RENDITION_BITRATES = [128, 192, 320] as const;
export type RenditionBitrate = (typeof RENDITION_BITRATES)[number];

const ENCODER_RATES = new Set([32000, 44100, 48000]);
const FALLBACK_RATE = 44100;
/** -3 dB: what the centre and surround channels contribute to each side of a stereo fold-down. */
const FOLD = Math.SQRT1_2;

const qualityOf = (kbps: RenditionBitrate): AudioQuality => `${kbps}kbps`;

export async function renderMp3Renditions(
  master: Uint8Array,
  format: PcmFormat,
  bitrates: readonly RenditionBitrate[] = RENDITION_BITRATES,
  /** Stops between chunks (the process is shutting down); the caller's job is retried later. */
  signal?: AbortSignal,
): Promise<Map<RenditionBitrate, Buffer>> {
  const outputs = new Map<RenditionBitrate, Uint8Array[]>(bitrates.map((kbps) => [kbps, []]));
  let encoders: Map<RenditionBitrate, Mp3Stream> | null = null;
  let resamplers: [StreamingResampler, StreamingResampler] | null = null;
  const encode = async (left: Float32Array, right: Float32Array) => {
    for (const [kbps, encoder] of encoders!) {
      outputs.get(kbps)!.push(encoder.write(left, right));
      await nextTurn(); // an encode of a chunk takes milliseconds; let requests in between
    }
  };
  for await (const chunk of decodePcm(master, format)) {
    signal?.throwIfAborted();
    if (!encoders) {
      const rate = ENCODER_RATES.has(chunk.sampleRate) ? chunk.sampleRate : FALLBACK_RATE;
      if (rate !== chunk.sampleRate) resamplers = [new StreamingResampler(chunk.sampleRate, rate), new StreamingResampler(chunk.sampleRate, rate)];
      encoders = new Map();
      for (const kbps of bitrates) encoders.set(kbps, await createMp3Stream(qualityOf(kbps), rate));
    }
    const [left, right] = toStereo(chunk.channels);
    if (resamplers) await encode(resamplers[0].push(left), resamplers[1].push(right));
    else await encode(left, right);
  }
  if (!encoders) throw new Error('the master holds no audio');
  if (resamplers) await encode(resamplers[0].flush(), resamplers[1].flush());
  const result = new Map<RenditionBitrate, Buffer>();
  for (const [kbps, encoder] of encoders) result.set(kbps, Buffer.concat([...outputs.get(kbps)!, encoder.finish()]));
  return result;
}

/** Any channel layout as left and right: mono on both sides, surround folded down (ITU-R BS.775). */
export function toStereo(channels: Float32Array[]): [Float32Array, Float32Array] {
  if (channels.length === 1) return [channels[0], channels[0]];
  if (channels.length === 2) return [channels[0], channels[1]];
  // L R C [LFE] Ls Rs in WAV order; the LFE is left out, as in the usual fold-down.
  const [l, r, c] = channels;
  const surround = channels.length >= 6 ? [channels[4], channels[5]] : channels.length === 5 ? [channels[3], channels[4]] : [null, null];
  const left = new Float32Array(l.length);
  const right = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) {
    left[i] = l[i] + FOLD * (c[i] + (surround[0]?.[i] ?? 0));
    right[i] = r[i] + FOLD * (c[i] + (surround[1]?.[i] ?? 0));
  }
  return [left, right];
}
