/**
 * Tonal balance: a render's long-term average spectrum (LTAS) in third-octave bands, level-normalised,
 * against a reference curve for its genre family (issue 18: the AI songs were dull and heavy in the low
 * mids, half their energy in 60-250 Hz and 2-4 kHz 5-10 dB under reference recordings), the corrective
 * EQ design that fits a deviation (bench/tonal-balance.ts --derive bakes it per family into genre-eq.ts),
 * and the master EQ that render.ts runs before the master chain (the family's bands and the song's colour).
 *
 * Reference curves. Pestana, Ma, Reiss, Barbosa and Black, "Spectral characteristics of popular commercial
 * recordings 1950-2010" (AES 135th Convention, 2013, paper 8960) measured the LTAS of the best-selling
 * records by year and genre; Elowsson and Friberg, "Long-term average spectrum in popular music and its
 * relation to the level of the percussion" (AES 142nd Convention, 2017) fitted the mean LTAS of a larger
 * set. Their published shape, as band power in third octaves (a pink noise is flat): a broad maximum
 * from about 50 to 120 Hz, a fall of about 2.5-3 dB per octave through the mids to about 4 kHz, steeper
 * above (about 4-5 dB per octave) and a roll-off beyond 10-12 kHz; modern records carry more low end and
 * more treble than older ones, and genres differ by a few dB: electronic and hip hop with more sub-bass,
 * rock with more upper mids, jazz and folk with less low end and more midrange, lo-fi darker on top.
 * The numbers below were not read off the papers' figures (not at hand offline): they encode that shape
 * as break points and slopes, and genre offsets of 1-4 dB in the directions the papers describe, checked
 * against the reference recordings measured for the issue (2-4 kHz about 15 dB under the 60-250 Hz band in
 * summed power; the lo-fi curve gives 15.4 dB, pop 13.2, rock 12.4). They are a target with a tolerance (+-3 dB per band), not a fingerprint.
 */
import type { GenreFamily } from '../compose/style.js';
import { type Band, Biquad } from './biquad.js';
import { Rng } from '../random.js';
import { GENRE_EQ } from './genre-eq.js';

/** ISO third-octave centres from 63 Hz to 12.5 kHz: the bands the balance is measured and held in. */
export const BAND_CENTRES: readonly number[] = [
  63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500,
];
const EDGE = 2 ** (1 / 6);

/**
 * The all-genre shape (dB, band power per third octave) at BAND_CENTRES: flat to 100 Hz, -2.7 dB per
 * octave to 4 kHz, -4.5 dB per octave to 10 kHz, -7 dB per octave above.
 */
function baseCurve(hz: number): number {
  const oct = (a: number, b: number) => Math.log2(b / a);
  if (hz <= 100) return 0;
  if (hz <= 4000) return -2.7 * oct(100, hz);
  const at4k = -2.7 * oct(100, 4000);
  if (hz <= 10000) return at4k - 4.5 * oct(4000, hz);
  return at4k - 4.5 * oct(4000, 10000) - 7 * oct(10000, hz);
}

/** Offsets per family (dB) as [from Hz, to Hz, dB] ramps added to the base: see the header for the why. */
const FAMILY_OFFSETS: Record<GenreFamily, [number, number, number][]> = {
  pop: [
    [2000, 5000, 1],
    [8000, 12500, 1],
  ],
  rock: [
    [63, 80, -1],
    [1250, 5000, 1.5],
  ],
  electronic: [
    [63, 100, 2],
    [8000, 12500, 1.5],
  ],
  lofi: [
    [200, 400, 1],
    [2000, 4000, -1],
    [6300, 12500, -3],
  ],
  jazz: [
    [63, 80, -3],
    [100, 100, -1],
    [400, 1250, 1],
  ],
  folk: [
    [63, 80, -4],
    [100, 125, -1.5],
    [500, 1600, 1],
    [2000, 4000, 0.5],
  ],
  ambient: [
    [63, 125, 1],
    [2000, 5000, -1.5],
    [8000, 12500, -1],
  ],
};

/** The reference curve of a family at BAND_CENTRES, level-normalised (mean 0 dB over the bands). */
export function referenceCurve(family: GenreFamily): number[] {
  const curve = BAND_CENTRES.map((hz) => {
    let db = baseCurve(hz);
    for (const [from, to, offset] of FAMILY_OFFSETS[family]) if (hz >= from * 0.99 && hz <= to * 1.01) db += offset;
    return db;
  });
  return normalise(curve);
}

function normalise(levels: readonly number[]): number[] {
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  return levels.map((l) => l - mean);
}

const FFT_SIZE = 8192;

/**
 * A radix-2 complex FFT of FFT_SIZE points with its tables computed once: the long-term spectrum runs one
 * per frame of the whole track (both channels at once, see longTermSpectrum), so it must be cheap.
 */
class Fft {
  private readonly reverse: Uint32Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(readonly size: number) {
    const bits = Math.log2(size);
    this.reverse = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reverse[i] = r;
    }
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let k = 0; k < size / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = -Math.sin((2 * Math.PI * k) / size);
    }
  }

  /** In place. */
  transform(re: Float64Array, im: Float64Array): void {
    const { size, reverse, cos, sin } = this;
    for (let i = 0; i < size; i++) {
      const j = reverse[i];
      if (i < j) {
        const tr = re[i];
        re[i] = re[j];
        re[j] = tr;
        const ti = im[i];
        im[i] = im[j];
        im[j] = ti;
      }
    }
    for (let len = 2; len <= size; len <<= 1) {
      const half = len >> 1;
      const step = size / len;
      for (let i = 0; i < size; i += len) {
        for (let k = 0, t = 0; k < half; k++, t += step) {
          const a = i + k;
          const b = a + half;
          const wr = cos[t];
          const wi = sin[t];
          const tr = re[b] * wr - im[b] * wi;
          const ti = re[b] * wi + im[b] * wr;
          re[b] = re[a] - tr;
          im[b] = im[a] - ti;
          re[a] += tr;
          im[a] += ti;
        }
      }
    }
  }
}

export interface SpectrumOptions {
  /** Analyse every `stride`-th frame of FFT_SIZE samples (default 1: every frame). */
  stride?: number;
}

/**
 * Long-term average spectrum: Hann-windowed FFT frames of 8192 samples (5.4 Hz bins: three or more bins
 * in the 63 Hz band), power summed over both channels, summed per third-octave band (edges at the centre
 * times 2^(+-1/6)), in dB. Silent frames add nothing. Not normalised: see `balanceAgainst`. The two
 * channels go through one complex FFT (left real, right imaginary): with Z = FFT(l + i r),
 * |L_k|^2 + |R_k|^2 = (|Z_k|^2 + |Z_(N-k)|^2) / 2, so a stereo frame costs one transform.
 */
export function longTermSpectrum(left: Float32Array, right: Float32Array | null, sampleRate: number, opts: SpectrumOptions = {}): number[] {
  const stride = Math.max(1, Math.floor(opts.stride ?? 1));
  const n = FFT_SIZE;
  const window = new Float64Array(n);
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  const binHz = sampleRate / n;
  const bandOf = new Int16Array(n / 2).fill(-1);
  BAND_CENTRES.forEach((hz, b) => {
    const lo = Math.ceil(hz / EDGE / binHz);
    const hi = Math.min(n / 2 - 1, Math.floor((hz * EDGE) / binHz));
    for (let k = lo; k <= hi; k++) bandOf[k] = b;
  });
  const power = new Float64Array(BAND_CENTRES.length);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const fft = new Fft(n);
  const frames = Math.floor(left.length / n);
  for (let f = 0; f < frames; f += stride) {
    const at = f * n;
    for (let i = 0; i < n; i++) re[i] = left[at + i] * window[i];
    if (right) for (let i = 0; i < n; i++) im[i] = right[at + i] * window[i];
    else im.fill(0);
    fft.transform(re, im);
    for (let k = 1; k < n / 2; k++) {
      const b = bandOf[k];
      if (b < 0) continue;
      const m = n - k;
      const p = re[k] * re[k] + im[k] * im[k] + re[m] * re[m] + im[m] * im[m];
      // Mono: Z is the spectrum of a real signal, |Z_k| = |Z_(N-k)|, so this counts it twice, like two channels.
      power[b] += p / 2;
    }
  }
  return Array.from(power, (p) => 10 * Math.log10(p + 1e-30));
}

export interface Balance {
  /** Level-normalised spectrum minus the level-normalised reference curve, dB per band. */
  deviation: number[];
  /** Largest |deviation|, dB. */
  maxDb: number;
  /** RMS of the deviation over the bands, dB. */
  rmsDb: number;
}

/** A spectrum (longTermSpectrum) against a family's reference curve, both level-normalised. */
export function balanceAgainst(spectrum: readonly number[], family: GenreFamily): Balance {
  const curve = referenceCurve(family);
  const deviation = normalise(spectrum).map((l, i) => l - curve[i]);
  return {
    deviation,
    maxDb: Math.max(...deviation.map(Math.abs)),
    rmsDb: Math.sqrt(deviation.reduce((s, d) => s + d * d, 0) / deviation.length),
  };
}

export interface CorrectiveEqOptions {
  /** Only broad peaks and shelves, no third-octave peaks (default false). */
  broadOnly?: boolean;
  /** At most this many bands (default MAX_BANDS). */
  maxBands?: number;
  /** Largest boost or cut of one band, dB (default EQ_LIMIT_DB). */
  limitDb?: number;
}

/** Q of a broad band (about an octave wide) and of a narrow one (a third of an octave). */
const BROAD_Q = 1.4;
const NARROW_Q = 4.3;
/** Largest boost or cut of one band (dB): a render missing a band entirely is not rebuilt from nothing. */
const EQ_LIMIT_DB = 10;
/**
 * At most this many bands: each is a biquad on both channels of every sample of the track (about 40 ms of
 * CPU for 180 s on this machine), against a budget of about 9 s for the whole track (bench/generation.ts).
 */
const MAX_BANDS = 9;
/** Bands under this gain are left out. */
const EQ_MIN_DB = 0.3;
/** Points per third octave at which a band's effect is averaged (in power), so a narrow peak is not overrated. */
const RESPONSE_POINTS = [-2, -1, 0, 1, 2].map((k) => 2 ** (k / 15));

/** Magnitude (dB) of a chain of bands at `hz`. */
export function chainResponseDb(bands: readonly Band[], hz: number, sampleRate: number): number {
  return bands.reduce((db, band) => db + new Biquad(band, sampleRate).responseDb(hz, sampleRate), 0);
}

/** What a filter does to the power of each third-octave band (dB), averaged over the band. */
function bandEffect(filter: Biquad, sampleRate: number): number[] {
  return chainBandEffect([filter], sampleRate);
}

/** What a chain of filters does to the power of each third-octave band (dB), averaged over the band. */
export function chainBandEffect(filters: readonly Biquad[], sampleRate: number): number[] {
  return BAND_CENTRES.map((hz) => {
    const gainDb = (at: number) => filters.reduce((db, f) => db + f.responseDb(at, sampleRate), 0);
    const mean = RESPONSE_POINTS.reduce((s, k) => s + 10 ** (gainDb(hz * k) / 10), 0) / RESPONSE_POINTS.length;
    return 10 * Math.log10(mean);
  });
}

/** The bands of a song's master EQ (applyGenreEq): its family's, then its own colour. */
export function masterEqBands(family: GenreFamily, seed: number): Band[] {
  return [...GENRE_EQ[family], ...songColour(seed, FAMILY_COLOUR_DB[family])];
}

/**
 * The EQ that takes a mix from `deviation` (balanceAgainst) to within `toleranceDb` of the curve. Only the
 * excess beyond the tolerance is corrected: a mix inside it keeps its own colour, so songs of one genre
 * still differ (issue 18's timbre spread). Bands are added one at a time where the excess is largest: a run
 * of three or more third octaves out on the same side gets a broad peak (or a shelf at either end of the
 * range), a lone one a narrow peak (a song's key puts its bass notes and chord tones in a few third
 * octaves, a boomy note or a hole between two, which no octave-wide band can follow); after each addition
 * every gain is refitted by rounds of relaxation on the chain's response averaged over each band, with
 * the spectrum level-normalised again. Stops when every band is within tolerance or at MAX_BANDS.
 * Deterministic: the same deviation gives the same bands. With `broadOnly` a lone band gets a broad peak
 * (or a shelf at either end) too: for a family's mean deviation (genre-eq.ts), whose narrow features are
 * the few songs' keys and instruments, not the genre's.
 */
export function correctiveEq(deviation: readonly number[], sampleRate: number, toleranceDb = 1.5, opts: CorrectiveEqOptions = {}): Band[] {
  const n = BAND_CENTRES.length;
  const maxBands = opts.maxBands ?? MAX_BANDS;
  const limitDb = opts.limitDb ?? EQ_LIMIT_DB;
  const bands: Band[] = [];
  const owned: number[][] = [];
  const effects: number[][] = [];
  const excessOf = (): number[] => {
    const shaped = deviation.map((d, i) => d + effects.reduce((s, e) => s + e[i], 0));
    return normalise(shaped).map((p) => p - Math.max(-toleranceDb, Math.min(toleranceDb, p)));
  };
  const refit = (k: number, db: number) => {
    bands[k].db = Math.max(-limitDb, Math.min(limitDb, db));
    effects[k] = bandEffect(new Biquad(bands[k], sampleRate), sampleRate);
  };
  while (bands.length < maxBands) {
    const excess = excessOf();
    let worst = 0;
    for (let i = 1; i < n; i++) if (Math.abs(excess[i]) > Math.abs(excess[worst])) worst = i;
    if (Math.abs(excess[worst]) < 0.05) break;
    // The run of bands out of tolerance on the same side as the worst one.
    const sign = Math.sign(excess[worst]);
    let lo = worst;
    let hi = worst;
    while (lo > 0 && Math.sign(excess[lo - 1]) === sign) lo--;
    while (hi < n - 1 && Math.sign(excess[hi + 1]) === sign) hi++;
    let band: Band;
    let own: number[];
    const broad = hi - lo >= 2 || opts.broadOnly === true;
    if (broad && hi === n - 1) [band, own] = [{ type: 'highshelf', hz: BAND_CENTRES[Math.max(lo, n - 4)], db: 0 }, range(Math.max(lo, n - 4), hi)];
    else if (broad && lo === 0) [band, own] = [{ type: 'lowshelf', hz: BAND_CENTRES[Math.min(hi, 3)], db: 0 }, range(0, Math.min(hi, 3))];
    else if (broad) {
      const centre = Math.round((lo + hi) / 2);
      [band, own] = [{ type: 'peak', hz: BAND_CENTRES[centre], q: BROAD_Q, db: 0 }, range(Math.max(lo, centre - 1), Math.min(hi, centre + 1))];
    } else [band, own] = [{ type: 'peak', hz: BAND_CENTRES[worst], q: NARROW_Q, db: 0 }, [worst]];
    bands.push(band);
    owned.push(own);
    effects.push(new Array<number>(n).fill(0));
    refit(bands.length - 1, -excess[worst]);
    for (let round = 0; round < 30; round++) {
      const e = excessOf();
      bands.forEach((b, k) => refit(k, b.db! - (0.7 * owned[k].reduce((s, i) => s + e[i], 0)) / owned[k].length));
    }
  }
  return bands.filter((b) => Math.abs(b.db!) >= EQ_MIN_DB).map((b) => ({ ...b, db: Math.round(b.db! * 100) / 100 }));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Largest gain of each of a song's own colour bands (dB): inside the +-3 dB a song may sit off its curve. */
export const SONG_COLOUR_DB = 3;

/**
 * Families whose songs take broader strokes (dB): lo-fi's tape and samplers run from muffled to crisp, a
 * rock record from dark to bright. Their songs stood 2.6-3.2 dB apart with +-3 dB (bench/timbre.ts, target
 * >= 4 dB; reference lo-fi recordings 6-13 dB). Still zero mean: the family's mean stays on its curve.
 * Rock 5 -> 7 dB: with its wider pools and the balance per song its songs stood 2.8 dB apart, 3.2 with 7.
 * Lo-fi 6 -> 10 and rock 7 -> 12 with the master's match stage after the colour (tonal-match.ts), which
 * pulls whatever passes its 9 dB dead band back to it, so a wide colour no longer drags the family's mean
 * off its curve: lo-fi's songs 4.3 / 4.4 dB apart on 5 / 10 songs, rock's 4.1 / 4.4 (bench/README.md
 * "A per-song match stage").
 */
export const FAMILY_COLOUR_DB: Partial<Record<GenreFamily, number>> = { lofi: 10, rock: 12 };

/**
 * A song's own colour, drawn from its seed: a low shelf at 160 Hz, a high shelf at 4 kHz and an
 * octave-wide peak between 300 Hz and 3 kHz, each uniform in +-depthDb (SONG_COLOUR_DB, or the family's
 * FAMILY_COLOUR_DB) (a mix engineer's broad strokes: warmer or leaner, darker or brighter, a scooped or forward middle). Zero mean over songs, so
 * the family's mean stays where its master EQ puts it, while songs of one family differ in more than
 * their instruments (issue 18's timbre spread; reference recordings 6-13 dB apart).
 */
export function songColour(seed: number, depthDb = SONG_COLOUR_DB): Band[] {
  const rng = Rng.derive(seed, 'song-colour');
  const gain = () => Math.round((rng.next() * 2 - 1) * depthDb * 100) / 100;
  const low = gain();
  const high = gain();
  const midHz = Math.round(300 * 10 ** rng.next());
  return [
    { type: 'lowshelf', hz: 160, db: low },
    { type: 'highshelf', hz: 4000, db: high },
    { type: 'peak', hz: midHz, q: BROAD_Q, db: gain() },
  ];
}

/**
 * The master EQ without the per-song match (music/render.ts with `tonalMatch: false`; by default render.ts
 * runs tonal-match.ts applyMatchedMasterEq: these bands, then the match), over the mix in place: the family's bands
 * (genre-eq.ts, fitted to the family's mean deviation from its curve: the same for every song, so the
 * family's average spectrum is brought onto the curve and the songs keep their differences), then the
 * song's own colour (songColour, FAMILY_COLOUR_DB deep in lo-fi and rock). Returns the bands applied.
 */
export function applyGenreEq(left: Float32Array, right: Float32Array, family: GenreFamily, seed: number, sampleRate: number, blockSamples = 8192): Band[] {
  const bands = masterEqBands(family, seed);
  const filters = bands.map((b) => new Biquad(b, sampleRate));
  for (let at = 0; at < left.length; at += blockSamples) {
    const l = left.subarray(at, at + blockSamples);
    const r = right.subarray(at, at + blockSamples);
    for (const f of filters) f.processStereo(l, r, l.length);
  }
  return bands;
}
