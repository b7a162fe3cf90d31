/**
 * Waveform peaks in audiowaveform's JSON format (version 2, 8-bit, one channel), computed block by block
 * while rendering so the PCM never has to be kept.
 */
export interface WaveformPeaks {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8;
  length: number; // number of pixels (min/max pairs)
  data: number[]; // min, max, min, max ... in -128..127
}

export class WaveformBuilder {
  private readonly data: number[] = [];
  private min = 0;
  private max = 0;
  private filled = 0;

  constructor(
    private readonly sampleRate: number,
    private readonly samplesPerPixel: number,
  ) {}

  add(left: Float32Array, right: Float32Array, length = left.length): void {
    for (let i = 0; i < length; i++) {
      const value = (left[i] + right[i]) * 0.5;
      if (value < this.min) this.min = value;
      if (value > this.max) this.max = value;
      if (++this.filled === this.samplesPerPixel) this.flush();
    }
  }

  private flush(): void {
    const toByte = (v: number) => Math.max(-128, Math.min(127, Math.round(v * 127)));
    this.data.push(toByte(this.min), toByte(this.max));
    this.min = 0;
    this.max = 0;
    this.filled = 0;
  }

  finish(): WaveformPeaks {
    if (this.filled > 0) this.flush();
    return {
      version: 2,
      channels: 1,
      sample_rate: this.sampleRate,
      samples_per_pixel: this.samplesPerPixel,
      bits: 8,
      length: this.data.length / 2,
      data: this.data,
    };
  }
}
