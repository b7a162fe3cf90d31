/**
 * A spectrogram PNG of a mono signal: time left to right, frequency bottom to top on a log scale (40 Hz to
 * 16 kHz), level in dB (-90 to 0 relative to the loudest bin) as a dark-to-bright colour ramp. The FFT is
 * meyda's (a dependency already); the PNG writer is the cover art's.
 */
import meydaExports from 'meyda';
import { encodePng } from '../../src/engine/music/cover.js';

type MeydaApi = (typeof meydaExports)['default'];
const Meyda = meydaExports as unknown as MeydaApi;

const FFT_SIZE = 2048;
const LOW_HZ = 40;
const HIGH_HZ = 16000;
const FLOOR_DB = -90;

export function spectrogramPng(signal: Float32Array, sampleRate: number, width = 1200, height = 320): Buffer {
  Meyda.bufferSize = FFT_SIZE;
  Meyda.sampleRate = sampleRate;
  Meyda.windowingFunction = 'hanning';
  const columns = Math.max(1, Math.min(width, Math.floor((signal.length - FFT_SIZE) / 256)));
  const hop = Math.max(1, Math.floor((signal.length - FFT_SIZE) / columns));
  const levels = new Float32Array(columns * height);
  const binHz = sampleRate / FFT_SIZE;
  // Each pixel row covers a band of the log-frequency axis; it shows the strongest bin in that band.
  const bandEdges = Array.from({ length: height + 1 }, (_, y) => (LOW_HZ * (HIGH_HZ / LOW_HZ) ** (y / height)) / binHz);
  let loudest = 1e-12;
  for (let x = 0; x < columns; x++) {
    const frame = signal.subarray(x * hop, x * hop + FFT_SIZE);
    const spectrum = Meyda.extract('amplitudeSpectrum', frame) as unknown as Float32Array;
    for (let y = 0; y < height; y++) {
      let value = 0;
      const from = Math.floor(bandEdges[y]);
      const to = Math.max(from + 1, Math.ceil(bandEdges[y + 1]));
      for (let bin = from; bin < to && bin < spectrum.length; bin++) value = Math.max(value, spectrum[bin]);
      levels[x * height + y] = value;
      loudest = Math.max(loudest, value);
    }
  }
  const rowBytes = columns * 3 + 1;
  const pixels = Buffer.alloc(rowBytes * height);
  for (let row = 0; row < height; row++) {
    const y = height - 1 - row; // low frequencies at the bottom
    pixels[row * rowBytes] = 0;
    for (let x = 0; x < columns; x++) {
      const db = 20 * Math.log10(Math.max(levels[x * height + y], 1e-12) / loudest);
      const t = Math.max(0, Math.min(1, 1 - db / FLOOR_DB));
      const at = row * rowBytes + 1 + x * 3;
      pixels[at] = Math.round(255 * Math.min(1, t * 1.6));
      pixels[at + 1] = Math.round(255 * Math.max(0, t * 1.6 - 0.6));
      pixels[at + 2] = Math.round(255 * Math.max(0, Math.min(1, 0.5 - Math.abs(t - 0.35) * 1.6)) + 80 * t * t);
    }
  }
  return encodePng(columns, height, pixels);
}
