/**
 * A master measured as it airs: the MP3 decoded, then integrated loudness (BS.1770, the project's meter),
 * true peak, side energy below mid, and the decoded mid signal kept for a spectrogram.
 */
import { LoudnessMeter } from '../../src/engine/audio/loudness.js';
import { decodePcm } from '../../src/engine/audio/pcm.js';
import { TruePeakMeter } from '../../src/engine/audio/true-peak.js';

export interface MasterMeasure {
  lufs: number | null;
  dbtp: number | null;
  /** Side energy below mid, dB (a mono master is +Infinity). */
  sideBelowMidDb: number;
  sampleRate: number;
  /** (L + R) / 2, for spectrograms. */
  mid: Float32Array;
}

export async function measureMaster(mp3: Uint8Array): Promise<MasterMeasure> {
  const loudness = new LoudnessMeter(44100, 2);
  const peak = new TruePeakMeter(2);
  const mids: Float32Array[] = [];
  let midEnergy = 0;
  let sideEnergy = 0;
  let sampleRate = 44100;
  for await (const chunk of decodePcm(mp3, 'mp3')) {
    sampleRate = chunk.sampleRate;
    const [l, r] = chunk.channels;
    loudness.push([l, r], chunk.frames);
    peak.push([l, r], chunk.frames);
    const mid = new Float32Array(chunk.frames);
    for (let i = 0; i < chunk.frames; i++) {
      mid[i] = (l[i] + r[i]) / 2;
      midEnergy += mid[i] ** 2;
      sideEnergy += ((l[i] - r[i]) / 2) ** 2;
    }
    mids.push(mid);
  }
  const mid = new Float32Array(mids.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const m of mids) {
    mid.set(m, at);
    at += m.length;
  }
  return { lufs: loudness.integrated(), dbtp: peak.dbtp, sideBelowMidDb: 10 * Math.log10(midEnergy / sideEnergy), sampleRate, mid };
}
