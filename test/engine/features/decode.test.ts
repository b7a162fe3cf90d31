import { describe, expect, it } from 'vitest';
import { createMp3Encoder } from 'wasm-media-encoders';
import wavefilePkg from 'wavefile';
import { decodeAudio } from '../../../src/engine/features/decode.js';
import { AudioDecodeError } from '../../../src/engine/features/errors.js';
import { extractFeatures, extractFeaturesFromFile } from '../../../src/engine/features/extract.js';
import { StreamingResampler } from '../../../src/engine/features/resample.js';
import { chordTrack, SR } from './synth.js';

const { WaveFile } = wavefilePkg;

/** Naive 2x upsampling (linear interpolation) is enough to make a 44.1 kHz master from the test signal. */
function upsample2x(pcm: Float32Array): Float32Array {
  const out = new Float32Array(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) {
    out[2 * i] = pcm[i];
    out[2 * i + 1] = i + 1 < pcm.length ? (pcm[i] + pcm[i + 1]) / 2 : pcm[i];
  }
  return out;
}

async function encodeMp3(left: Float32Array, right: Float32Array, sampleRate: 44100 | 22050): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate, channels: 2, bitrate: 128 });
  const parts: Uint8Array[] = [];
  // Encode in slices, as a renderer would, and copy: the encoder reuses its output buffer.
  for (let i = 0; i < left.length; i += 44100) {
    parts.push(encoder.encode([left.subarray(i, i + 44100), right.subarray(i, i + 44100)]).slice());
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

describe('decode', () => {
  it('decodes an MP3 to features that match those of the original PCM', async () => {
    const original = chordTrack(['Am', 'Dm', 'E', 'Am'], 120, 4, 2);
    const master = upsample2x(original);
    const mp3 = await encodeMp3(master, master, 44100);
    const fromMp3 = await extractFeaturesFromFile(mp3, 'mp3');
    const fromPcm = extractFeatures(original, SR);

    expect(fromMp3.durationSec).toBeCloseTo(fromPcm.durationSec, 0); // within the encoder's padding
    expect(Math.abs(fromMp3.tempoBpm - fromPcm.tempoBpm)).toBeLessThan(1);
    expect(fromMp3.key).toBe(fromPcm.key);
    expect(fromMp3.mode).toBe(fromPcm.mode);
    expect(Math.abs(fromMp3.loudnessDb - fromPcm.loudnessDb)).toBeLessThan(1);
    expect(Math.abs(fromMp3.spectralCentroidHz - fromPcm.spectralCentroidHz) / fromPcm.spectralCentroidHz).toBeLessThan(0.1);
    fromPcm.chroma.forEach((c, i) => expect(Math.abs(fromMp3.chroma[i] - c)).toBeLessThan(0.02));
    fromPcm.mfccMean.forEach((m, i) => expect(Math.abs(fromMp3.mfccMean[i] - m)).toBeLessThan(1 + 0.1 * Math.abs(m)));
    const agreeing = fromMp3.beatChords.filter((c) => fromPcm.beatChords.includes(c)).length;
    expect(agreeing / fromMp3.beatChords.length).toBeGreaterThan(0.9);
  });

  it('decodes a 16-bit stereo WAV at 44.1 kHz to the working rate, honouring maxDurationSec', async () => {
    const seconds = 3;
    const left = new Int16Array(44100 * seconds);
    for (let i = 0; i < left.length; i++) left[i] = Math.round(16000 * Math.sin((2 * Math.PI * 441 * i) / 44100));
    const wav = new WaveFile();
    wav.fromScratch(2, 44100, '16', [left, left]);
    const bytes = wav.toBuffer();

    const { pcm, sampleRate } = await decodeAudio(bytes, 'wav');
    expect(sampleRate).toBe(22050);
    expect(Math.abs(pcm.length - 22050 * seconds)).toBeLessThanOrEqual(1);
    // Amplitude kept (16000 / 32768) and frequency kept: 441 Hz is 50 samples per period at 22050 Hz.
    const middle = pcm.subarray(22050, 44100);
    expect(Math.max(...middle)).toBeCloseTo(16000 / 32768, 2);
    expect(middle[0]).toBeCloseTo(middle[50], 3);

    const limited = await decodeAudio(bytes, 'wav', { maxDurationSec: 1 });
    expect(limited.pcm.length).toBe(22050);
  });

  it('removes content above the new Nyquist frequency when downsampling', () => {
    const resampler = new StreamingResampler(44100, 22050);
    const tone = Float32Array.from({ length: 44100 }, (_, i) => Math.sin((2 * Math.PI * 15000 * i) / 44100));
    const out = [...resampler.push(tone.subarray(0, 20000)), ...resampler.push(tone.subarray(20000)), ...resampler.flush()];
    expect(out.length).toBe(22050);
    const middle = out.slice(2000, 20000);
    const rms = Math.sqrt(middle.reduce((s, x) => s + x * x, 0) / middle.length);
    expect(rms).toBeLessThan(0.01); // a 15 kHz tone would alias to 7.05 kHz at full level otherwise
  });

  it('rejects bytes that are not audio with a typed error', async () => {
    await expect(decodeAudio(new Uint8Array(1000).fill(7), 'wav')).rejects.toBeInstanceOf(AudioDecodeError);
    await expect(decodeAudio(new Uint8Array(1000).fill(7), 'mp3')).rejects.toBeInstanceOf(AudioDecodeError);
  });
});
