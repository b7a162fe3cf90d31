/**
 * A streaming FLAC encoder (RFC 9639), written here: fixed predictors of order 0-4 per channel, stereo
 * decorrelation (left/side, side/right or mid/side when cheaper), partitioned Rice coding of the residual,
 * a verbatim subframe whenever prediction would cost more, and a STREAMINFO with the total length and the
 * MD5 of the samples once the stream is finished.
 *
 * Why not a library: libflacjs (libFLAC 1.3 compiled by emscripten, MIT/BSD) is the only npm FLAC encoder
 * kept up; its WebAssembly build fails to load on Node 20 (its old emscripten loader fetches the .wasm by
 * path), and its asm.js build encodes at about 25x real time, which would add some 7 s to a 180 s
 * generation. This encoder runs at well over 100x real time (bench/flac.ts), holds one block at a time and
 * gives the same bytes for the same samples. Decoding is @wasm-audio-decoders/flac (pcm.ts); the tests
 * check the round trip bit-exact through it, and the output was checked with the reference `flac -t`.
 *
 * Fixed predictors only (no LPC): masters compress to about 60-70% of their PCM size, where libFLAC's
 * default level gets about 55-65%; the master is stored, not streamed, so the difference is only storage.
 */
import { createHash, type Hash } from 'node:crypto';

export interface FlacStreamOptions {
  sampleRate: number;
  channels: 1 | 2;
  /** 16 or 24. */
  bitsPerSample: 16 | 24;
  /** Samples per channel in a frame; 4096 is what the reference encoder uses at 44.1 kHz. */
  blockSize?: number;
  /** Vorbis comments (`KEY=value`, e.g. the AI label), written as a VORBIS_COMMENT block after STREAMINFO. */
  tags?: [string, string][];
}

export interface FlacStream {
  /** The stream marker and a STREAMINFO still without length and MD5; `finish()` returns the final one. */
  header(): Uint8Array;
  /** Encodes integer samples (one array per channel, in range for bitsPerSample); returns the frames completed. */
  write(channels: Int32Array[]): Uint8Array;
  /** Encodes what is left; `header` is the final header to write over the first `header.length` bytes. */
  finish(): { frames: Uint8Array; header: Uint8Array };
}

const DEFAULT_BLOCK = 4096;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const MAX_PARTITION_ORDER = 5;
const MAX_RICE_4 = 14; // 15 is the escape code of 4-bit Rice parameters
const MAX_RICE_5 = 30;

export function createFlacStream(options: FlacStreamOptions): FlacStream {
  const blockSize = options.blockSize ?? DEFAULT_BLOCK;
  const { channels, bitsPerSample: bps, sampleRate } = options;
  if (blockSize < 16 || blockSize > 65535) throw new RangeError('blockSize must be within 16..65535');
  const pending = Array.from({ length: channels }, () => new Int32Array(blockSize));
  let filled = 0;
  let frameNumber = 0;
  let totalSamples = 0;
  let minFrame = Number.MAX_SAFE_INTEGER;
  let maxFrame = 0;
  const md5 = createHash('md5');
  const writer = new BitWriter(blockSize * channels * 4 + 64);

  const flushBlock = (n: number, out: Uint8Array[]) => {
    const block = pending.map((c) => c.subarray(0, n));
    hashSamples(md5, block, n, bps);
    const frame = encodeFrame(writer, block, n, frameNumber++, bps, sampleRate, blockSize);
    minFrame = Math.min(minFrame, frame.length);
    maxFrame = Math.max(maxFrame, frame.length);
    totalSamples += n;
    out.push(frame);
  };

  return {
    header: () =>
      streamHeader({ blockSize, minFrame: 0, maxFrame: 0, sampleRate, channels, bps, totalSamples: 0, md5: new Uint8Array(16), tags: options.tags }),
    write(input) {
      if (input.length !== channels) throw new RangeError(`expected ${channels} channels`);
      const length = input[0].length;
      const out: Uint8Array[] = [];
      for (let at = 0; at < length;) {
        const n = Math.min(blockSize - filled, length - at);
        for (let c = 0; c < channels; c++) pending[c].set(input[c].subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === blockSize) {
          flushBlock(blockSize, out);
          filled = 0;
        }
      }
      return concat(out);
    },
    finish() {
      const out: Uint8Array[] = [];
      if (filled > 0) flushBlock(filled, out);
      filled = 0;
      const digest = new Uint8Array(md5.digest());
      const header = streamHeader({
        blockSize,
        minFrame: minFrame === Number.MAX_SAFE_INTEGER ? 0 : minFrame,
        maxFrame,
        sampleRate,
        channels,
        bps,
        totalSamples,
        md5: digest,
        tags: options.tags,
      });
      return { frames: concat(out), header };
    },
  };
}

/** Float samples (-1..1) as integers of `bps` bits: rounded and clipped, no dither (see pipeline.ts). */
export function quantise(samples: Float32Array, bps: 16 | 24): Int32Array {
  const scale = 2 ** (bps - 1);
  const out = new Int32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i] * scale);
    out[i] = v >= scale ? scale - 1 : v < -scale ? -scale : v;
  }
  return out;
}

/** Integers of `bps` bits back to floats, as a decoder gives them (value / 2^(bps-1)). */
export function dequantise(samples: Int32Array, bps: 16 | 24): Float32Array {
  const scale = 1 / 2 ** (bps - 1);
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i] * scale;
  return out;
}

// ---- STREAMINFO ----

function streamHeader(info: {
  blockSize: number;
  minFrame: number;
  maxFrame: number;
  sampleRate: number;
  channels: number;
  bps: number;
  totalSamples: number;
  md5: Uint8Array;
  tags?: [string, string][];
}): Uint8Array {
  const comments = info.tags?.length ? vorbisComments(info.tags) : null;
  const w = new BitWriter(64 + (comments?.length ?? 0));
  w.bytes([0x66, 0x4c, 0x61, 0x43]); // "fLaC"
  w.bits(comments ? 0 : 1, 1); // last metadata block?
  w.bits(0, 7); // STREAMINFO
  w.bits(34, 24);
  w.bits(info.blockSize, 16); // the minimum leaves out the last block, the only short one

  w.bits(info.blockSize, 16);
  w.bits(info.minFrame, 24);
  w.bits(info.maxFrame, 24);
  w.bits(info.sampleRate, 20);
  w.bits(info.channels - 1, 3);
  w.bits(info.bps - 1, 5);
  w.bits(Math.floor(info.totalSamples / 2 ** 32), 4);
  w.bits(info.totalSamples >>> 0, 32);
  w.bytes(info.md5);
  if (comments) {
    w.bits(1, 1);
    w.bits(4, 7); // VORBIS_COMMENT
    w.bits(comments.length, 24);
    w.bytes(comments);
  }
  return w.take();
}

/** A VORBIS_COMMENT block body: little-endian lengths, a vendor string, then `KEY=value` pairs in UTF-8. */
function vorbisComments(tags: [string, string][]): Buffer {
  const entry = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    return [length, bytes];
  };
  const count = Buffer.alloc(4);
  count.writeUInt32LE(tags.length);
  return Buffer.concat([...entry('Station FLAC encoder'), count, ...tags.flatMap(([key, value]) => entry(`${key.toUpperCase()}=${value}`))]);
}

/** MD5 of the samples interleaved, little-endian, in whole bytes (the STREAMINFO definition). */
function hashSamples(md5: Hash, block: Int32Array[], n: number, bps: number): void {
  const channels = block.length;
  if (bps === 16 && LITTLE_ENDIAN) {
    const samples = new Int16Array(n * channels);
    for (let c = 0; c < channels; c++) {
      const channel = block[c];
      for (let i = 0, at = c; i < n; i++, at += channels) samples[at] = channel[i];
    }
    md5.update(new Uint8Array(samples.buffer));
    return;
  }
  const bytesPer = bps / 8;
  const buffer = new Uint8Array(n * channels * bytesPer);
  let at = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < channels; c++) {
      const v = block[c][i];
      buffer[at++] = v & 0xff;
      buffer[at++] = (v >> 8) & 0xff;
      if (bytesPer === 3) buffer[at++] = (v >> 16) & 0xff;
    }
  }
  md5.update(buffer);
}

// ---- frames ----

const SAMPLE_RATE_CODES: Record<number, number> = {
  88200: 1,
  176400: 2,
  192000: 3,
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
  96000: 11,
};

/** How the channels of a stereo frame are coded (frame header values 1, 8, 9, 10). */
type Assignment = 'independent' | 'left_side' | 'side_right' | 'mid_side';
const ASSIGNMENT_CODE: Record<Assignment, number> = { independent: 1, left_side: 8, side_right: 9, mid_side: 10 };

function encodeFrame(w: BitWriter, block: Int32Array[], n: number, frameNumber: number, bps: number, sampleRate: number, blockSize: number): Uint8Array {
  // Which signals to code: the channels as they are, or a stereo pair decorrelated.
  let plan: { assignment: Assignment; signals: Int32Array[]; widths: number[]; choices: FixedChoice[] };
  if (block.length === 2) {
    const [left, right] = block;
    const mid = new Int32Array(n);
    const side = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      mid[i] = (left[i] + right[i]) >> 1;
      side[i] = left[i] - right[i];
    }
    const [cl, cr, cm, cs] = [bestFixed(left, bps), bestFixed(right, bps), bestFixed(mid, bps), bestFixed(side, bps + 1)];
    const options: [Assignment, Int32Array[], number[], FixedChoice[]][] = [
      ['independent', [left, right], [bps, bps], [cl, cr]],
      ['left_side', [left, side], [bps, bps + 1], [cl, cs]],
      ['side_right', [side, right], [bps + 1, bps], [cs, cr]],
      ['mid_side', [mid, side], [bps, bps + 1], [cm, cs]],
    ];
    const cost = (o: (typeof options)[number]) => o[3][0].bits + o[3][1].bits;
    const best = options.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    plan = { assignment: best[0], signals: best[1], widths: best[2], choices: best[3] };
  } else {
    plan = { assignment: 'independent', signals: block, widths: block.map(() => bps), choices: block.map((x) => bestFixed(x, bps)) };
  }

  w.reset();
  // Header: sync code, fixed block size strategy.
  w.bits(0xfff8, 16);
  const sizeCode = n === blockSize && blockSize === 4096 ? 12 : 7;
  const rateCode = SAMPLE_RATE_CODES[sampleRate] ?? 0;
  w.bits(sizeCode, 4);
  w.bits(rateCode, 4);
  w.bits(block.length === 2 ? ASSIGNMENT_CODE[plan.assignment] : block.length - 1, 4);
  w.bits(bps === 16 ? 4 : 6, 3);
  w.bits(0, 1);
  writeUtf8Number(w, frameNumber);
  if (sizeCode === 7) w.bits(n - 1, 16);
  w.bits(crc8(w.view()), 8);

  plan.signals.forEach((signal, c) => writeSubframe(w, signal, plan.widths[c], plan.choices[c]));
  w.align();
  w.bits(crc16(w.view()), 16);
  return w.take();
}

/** The frame number in FLAC's extended UTF-8 coding. */
function writeUtf8Number(w: BitWriter, value: number): void {
  if (value < 0x80) return w.bits(value, 8);
  let extra = 1;
  while (value >= 2 ** (5 * extra + 6)) extra += 1;
  const lead = (0xff << (7 - extra)) & 0xff;
  w.bits(lead | Math.floor(value / 2 ** (6 * extra)), 8);
  for (let i = extra - 1; i >= 0; i--) w.bits(0x80 | (Math.floor(value / 2 ** (6 * i)) & 0x3f), 8);
}

interface FixedChoice {
  order: number;
  bits: number;
  partitionOrder: number;
  params: number[];
}

function residual(x: Int32Array, order: number, i: number): number {
  switch (order) {
    case 0:
      return x[i];
    case 1:
      return x[i] - x[i - 1];
    case 2:
      return x[i] - 2 * x[i - 1] + x[i - 2];
    case 3:
      return x[i] - 3 * x[i - 1] + 3 * x[i - 2] - x[i - 3];
    default:
      return x[i] - 4 * x[i - 1] + 6 * x[i - 2] - 4 * x[i - 3] + x[i - 4];
  }
}

const POW2 = Float64Array.from({ length: 33 }, (_, k) => 2 ** k);

/** Bits of a Rice-coded run of `count` values whose zigzag sum is `sum`, at parameter k (an estimate: (sum >> k) ~ sum / 2^k). */
function riceBits(sum: number, count: number, k: number): number {
  return count * (k + 1) + Math.floor(sum / POW2[k]);
}

/** The parameter near log2 of the mean (the optimum for a geometric residual), checked one either side. */
function bestParam(sum: number, count: number, maxParam: number): { k: number; bits: number } {
  const mean = count > 0 ? sum / count : 0;
  const guess = mean >= 2 ? Math.min(maxParam, Math.floor(Math.log2(mean * Math.LN2))) : 0;
  let best = { k: guess, bits: riceBits(sum, count, guess) };
  for (const k of [guess - 1, guess + 1]) {
    if (k < 0 || k > maxParam) continue;
    const bits = riceBits(sum, count, k);
    if (bits < best.bits) best = { k, bits };
  }
  return best;
}

/** The cheapest fixed predictor for `x` and its residual's partitioning, with the estimated subframe size in bits. */
function bestFixed(x: Int32Array, width: number): FixedChoice {
  const n = x.length;
  let best: FixedChoice = { order: -1, bits: 8 + n * width, partitionOrder: 0, params: [] }; // verbatim
  const maxParam = width > 16 ? MAX_RICE_5 : MAX_RICE_4 + 1; // 15 here means "needs the 5-bit form"
  const orders = Math.min(4, n - 1);
  let maxOrder = 0;
  while (maxOrder < MAX_PARTITION_ORDER && n % (1 << (maxOrder + 1)) === 0 && n >> (maxOrder + 1) > orders) maxOrder += 1;
  const parts = 1 << maxOrder;
  // Zigzag sums of every order's residual over the smallest partitions, in one pass.
  const sums = new Float64Array(5 * parts);
  const size = n >> maxOrder;
  for (let i = 0; i < Math.min(4, n); i++) {
    for (let order = 0; order <= Math.min(i, orders); order++) {
      const r = residual(x, order, i);
      sums[order] += r >= 0 ? 2 * r : -2 * r - 1;
    }
  }
  for (let part = 0; part < parts; part++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    for (let i = Math.max(4, part * size); i < (part + 1) * size; i++) {
      const a = x[i];
      const b = x[i - 1];
      const c = x[i - 2];
      const d = x[i - 3];
      const r1 = a - b;
      const r2 = r1 - b + c;
      const r3 = r2 - b + 2 * c - d;
      const r4 = r3 - b + 3 * c - 3 * d + x[i - 4];
      s0 += a >= 0 ? 2 * a : -2 * a - 1;
      s1 += r1 >= 0 ? 2 * r1 : -2 * r1 - 1;
      s2 += r2 >= 0 ? 2 * r2 : -2 * r2 - 1;
      s3 += r3 >= 0 ? 2 * r3 : -2 * r3 - 1;
      s4 += r4 >= 0 ? 2 * r4 : -2 * r4 - 1;
    }
    const at = part * 5;
    sums[at] += s0;
    sums[at + 1] += s1;
    sums[at + 2] += s2;
    sums[at + 3] += s3;
    sums[at + 4] += s4;
  }
  for (let order = 0; order <= orders; order++) {
    for (let po = maxOrder; po >= 0; po--) {
      const count = 1 << po;
      const span = parts / count;
      let bits = 8 + order * width + 2 + 4;
      const params: number[] = [];
      for (let p = 0; p < count; p++) {
        let s = 0;
        for (let q = p * span; q < (p + 1) * span; q++) s += sums[q * 5 + order];
        const samples = (n >> po) - (p === 0 ? order : 0);
        const choice = bestParam(s, samples, maxParam);
        params.push(choice.k);
        bits += choice.bits + 5;
      }
      if (bits < best.bits) best = { order, bits, partitionOrder: po, params };
    }
  }
  return best;
}

function writeSubframe(w: BitWriter, x: Int32Array, width: number, choice: FixedChoice): void {
  const n = x.length;
  let constant = true;
  for (let i = 1; i < n && constant; i++) constant = x[i] === x[0];
  if (constant) {
    w.bits(0, 8); // CONSTANT, no wasted bits
    w.signed(x[0], width);
    return;
  }
  if (choice.order < 0) {
    w.bits(0b00000010, 8); // VERBATIM
    for (let i = 0; i < n; i++) w.signed(x[i], width);
    return;
  }
  w.bits((0b001000 | choice.order) << 1, 8); // FIXED, order, no wasted bits
  for (let i = 0; i < choice.order; i++) w.signed(x[i], width);
  const wide = choice.params.some((k) => k > MAX_RICE_4);
  w.bits(wide ? 1 : 0, 2); // Rice with 4- or 5-bit parameters
  w.bits(choice.partitionOrder, 4);
  const count = 1 << choice.partitionOrder;
  const size = n >> choice.partitionOrder;
  for (let p = 0; p < count; p++) {
    const k = choice.params[p];
    w.bits(k, wide ? 5 : 4);
    for (let i = Math.max(p * size, choice.order); i < (p + 1) * size; i++) {
      const r = residual(x, choice.order, i);
      w.rice(r >= 0 ? 2 * r : -2 * r - 1, k);
    }
  }
}

// ---- bits, CRCs ----

class BitWriter {
  private buf: Uint8Array;
  private pos = 0;
  private acc = 0;
  private accBits = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  reset(): void {
    this.pos = 0;
    this.acc = 0;
    this.accBits = 0;
  }

  /** Writes the low `count` bits of `value` (count <= 32; value non-negative below 2^count). */
  bits(value: number, count: number): void {
    if (count > 24) {
      this.bits(Math.floor(value / 2 ** 16), count - 16);
      this.bits(value & 0xffff, 16);
      return;
    }
    if (this.pos + 8 > this.buf.length) this.grow();
    this.acc = ((this.acc << count) | (value & ((1 << count) - 1))) >>> 0;
    this.accBits += count;
    while (this.accBits >= 8) {
      this.accBits -= 8;
      this.buf[this.pos++] = (this.acc >>> this.accBits) & 0xff;
    }
    this.acc &= (1 << this.accBits) - 1;
  }

  /** A two's complement value in `count` bits. */
  signed(value: number, count: number): void {
    this.bits(value < 0 ? value + 2 ** count : value, count);
  }

  /** A zigzagged residual: the quotient in unary (zeros, then a one), then the low k bits. */
  rice(u: number, k: number): void {
    let q = u < 0x80000000 ? u >>> k : Math.floor(u / POW2[k]);
    while (q >= 24) {
      this.bits(0, 24);
      q -= 24;
    }
    if (k <= 24 - q - 1) {
      this.bits((1 << k) | (u & ((1 << k) - 1)), q + 1 + k);
      return;
    }
    this.bits(1, q + 1);
    if (k > 0) this.bits(u % 2 ** k, k);
  }

  bytes(data: ArrayLike<number>): void {
    for (let i = 0; i < data.length; i++) this.bits(data[i], 8);
  }

  align(): void {
    if (this.accBits > 0) this.bits(0, 8 - this.accBits);
  }

  /** The whole bytes written so far (a view, valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  take(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.reset();
    return out;
  }

  private grow(): void {
    const next = new Uint8Array(this.buf.length * 2);
    next.set(this.buf);
    this.buf = next;
  }
}

const CRC8 = new Uint8Array(256);
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c8 = i;
  let c16 = i << 8;
  for (let b = 0; b < 8; b++) {
    c8 = (c8 & 0x80 ? (c8 << 1) ^ 0x07 : c8 << 1) & 0xff;
    c16 = (c16 & 0x8000 ? (c16 << 1) ^ 0x8005 : c16 << 1) & 0xffff;
  }
  CRC8[i] = c8;
  CRC16[i] = c16;
}

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = CRC8[crc ^ b];
  return crc;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >> 8) ^ b];
  return crc;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
