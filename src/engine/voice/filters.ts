/**
 * The synthesiser's filters. Klatt's (1980) digital resonator y[n] = A x[n] + B y[n-1] + C y[n-2] with
 * C = -exp(-2 pi BW T), B = 2 exp(-pi BW T) cos(2 pi F T), A = 1 - B - C (unity gain at DC), so a cascade
 * of them gives each formant its natural relative level; his antiresonator is its inverse (nasal zero).
 * Frication bands in the parallel branch use a constant-peak-gain band-pass instead, so each band's gain
 * is the level at its centre whatever its frequency.
 */

export class Resonator {
  private a = 1;
  private b = 0;
  private c = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(private readonly sampleRate: number) {}

  set(frequency: number, bandwidth: number): void {
    const t = 1 / this.sampleRate;
    const r = Math.exp(-Math.PI * bandwidth * t);
    this.c = -r * r;
    this.b = 2 * r * Math.cos(2 * Math.PI * frequency * t);
    this.a = 1 - this.b - this.c;
  }

  process(x: number): number {
    const y = this.a * x + this.b * this.y1 + this.c * this.y2;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

export class AntiResonator {
  private a = 1;
  private b = 0;
  private c = 0;
  private x1 = 0;
  private x2 = 0;

  constructor(private readonly sampleRate: number) {}

  set(frequency: number, bandwidth: number): void {
    const t = 1 / this.sampleRate;
    const r = Math.exp(-Math.PI * bandwidth * t);
    const c = -r * r;
    const b = 2 * r * Math.cos(2 * Math.PI * frequency * t);
    const a = 1 - b - c;
    this.a = 1 / a;
    this.b = -b / a;
    this.c = -c / a;
  }

  process(x: number): number {
    const y = this.a * x + this.b * this.x1 + this.c * this.x2;
    this.x2 = this.x1;
    this.x1 = x;
    return y;
  }
}

/** Band-pass biquad with 0 dB gain at its centre (RBJ cookbook form). */
export class BandPass {
  private b0 = 0;
  private a1 = 0;
  private a2 = 0;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(private readonly sampleRate: number) {}

  set(frequency: number, bandwidth: number): void {
    const nyquistSafe = Math.min(frequency, this.sampleRate * 0.45);
    const w = (2 * Math.PI * nyquistSafe) / this.sampleRate;
    const q = Math.max(0.3, nyquistSafe / bandwidth);
    const alpha = Math.sin(w) / (2 * q);
    const a0 = 1 + alpha;
    this.b0 = alpha / a0;
    this.a1 = (-2 * Math.cos(w)) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  process(x: number): number {
    const y = this.b0 * (x - this.x2) - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

/**
 * Piecewise-linear parameter track: points (time, values[]) in time order, read forwards with a cursor
 * (the synthesiser only moves forwards in time, so a read is O(1) amortised).
 */
export class ParameterTrack {
  private readonly times: number[] = [];
  private readonly rows: Float64Array[] = [];
  private cursor = 0;

  constructor(readonly width: number) {}

  add(time: number, values: ArrayLike<number>): void {
    const last = this.times.length > 0 ? this.times[this.times.length - 1] : -Infinity;
    // Points closer than 0.1 ms (or out of order) would make a step: keep time strictly increasing.
    this.times.push(time <= last ? last + 1e-4 : time);
    this.rows.push(Float64Array.from(values));
  }

  get length(): number {
    return this.times.length;
  }

  /** Values at `time` into `out`; holds the first/last point outside the track. */
  read(time: number, out: Float64Array): void {
    const { times, rows } = this;
    if (times.length === 0) {
      out.fill(0);
      return;
    }
    if (this.cursor > 0 && times[this.cursor] > time) this.cursor = 0;
    while (this.cursor < times.length - 1 && times[this.cursor + 1] <= time) this.cursor++;
    const i = this.cursor;
    if (time <= times[0] || i === times.length - 1) {
      out.set(time <= times[0] ? rows[0] : rows[i]);
      return;
    }
    const span = times[i + 1] - times[i];
    const w = span > 0 ? (time - times[i]) / span : 0;
    const a = rows[i];
    const b = rows[i + 1];
    for (let k = 0; k < this.width; k++) out[k] = a[k] + (b[k] - a[k]) * w;
  }
}
