/**
 * Cover art: a deterministic 512x512 PNG from the seed and context. A two-colour gradient whose palette
 * follows mood (hue) and energy (saturation, brightness), with soft translucent discs and rings placed by
 * the seed. The PNG encoder is ~30 lines on node:zlib: an image library would be a large native or wasm
 * dependency for one RGB image per track.
 */
import { deflateSync } from 'node:zlib';
import { Rng } from '../random.js';
import type { MusicContext } from '../types.js';

const MOOD_HUES: Record<string, number> = {
  calm: 195,
  happy: 45,
  melancholic: 220,
  energetic: 355,
  dark: 265,
  dreamy: 290,
  romantic: 335,
  hopeful: 150,
  nostalgic: 25,
  focused: 175,
};
const GENRE_HUE_SHIFT: [RegExp, number][] = [
  [/synth|electr|wave|house|techno/, 300],
  [/lo-?fi|hip ?hop|chill/, 20],
  [/folk|acoustic|country/, 35],
  [/jazz|soul|blues/, 230],
  [/ambient|drone/, 190],
];

type Rgb = [number, number, number];

function hslToRgb(h: number, s: number, l: number): Rgb {
  const hue = (((h % 360) + 360) % 360) / 60;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs((hue % 2) - 1));
  const [r, g, b] = hue < 1 ? [c, x, 0] : hue < 2 ? [x, c, 0] : hue < 3 ? [0, c, x] : hue < 4 ? [0, x, c] : hue < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

function baseHue(context: MusicContext, rng: Rng): number {
  const hues = context.mood.map((m) => MOOD_HUES[m.trim().toLowerCase()]).filter((h): h is number => h !== undefined);
  const genreText = `${context.genre} ${context.subgenre}`.toLowerCase();
  const genreHue = GENRE_HUE_SHIFT.find(([pattern]) => pattern.test(genreText))?.[1];
  if (genreHue !== undefined) hues.push(genreHue);
  const hue = hues.length > 0 ? hues.reduce((a, b) => a + b, 0) / hues.length : rng.next() * 360;
  return hue + (rng.next() - 0.5) * 30;
}

export function generateCoverPng(context: MusicContext, seed: number, size = 512): Buffer {
  const rng = Rng.derive(seed, 'cover');
  const hue = baseHue(context, rng);
  const saturation = 0.35 + 0.5 * context.energy_level;
  const top = hslToRgb(hue, saturation, 0.18 + 0.2 * context.energy_level);
  const bottom = hslToRgb(hue + 40 + rng.next() * 40, saturation, 0.45 + 0.2 * context.energy_level);
  const shapes = Array.from({ length: rng.int(4, 9) }, () => ({
    x: rng.next() * size,
    y: rng.next() * size,
    r: size * (0.08 + rng.next() * 0.35),
    ring: rng.next() < 0.4,
    alpha: 0.15 + rng.next() * 0.35,
    colour: hslToRgb(hue + (rng.next() - 0.5) * 120, Math.min(1, saturation + 0.2), 0.5 + rng.next() * 0.35),
  }));
  const pixels = Buffer.alloc(size * (size * 3 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    pixels[row] = 0; // PNG filter type "None"
    const t = y / (size - 1);
    for (let x = 0; x < size; x++) {
      const pixel: Rgb = [top[0] + (bottom[0] - top[0]) * t, top[1] + (bottom[1] - top[1]) * t, top[2] + (bottom[2] - top[2]) * t];
      for (const s of shapes) {
        const d = Math.hypot(x - s.x, y - s.y);
        const edge = s.ring ? 1 - Math.min(1, Math.abs(d - s.r) / (size * 0.012)) : Math.min(1, Math.max(0, (s.r - d) / 2));
        if (edge <= 0) continue;
        const a = s.alpha * edge;
        for (let c = 0; c < 3; c++) pixel[c] = pixel[c] * (1 - a) + s.colour[c] * a;
      }
      const at = row + 1 + x * 3;
      for (let c = 0; c < 3; c++) pixels[at + c] = Math.max(0, Math.min(255, Math.round(pixel[c])));
    }
  }
  return encodePng(size, size, pixels);
}

/** PNG from pre-filtered 8-bit RGB scanlines (each row prefixed by its filter byte). */
export function encodePng(width: number, height: number, filteredRows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filteredRows, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** zlib.crc32 only exists from Node 20.15 / 22.2; the table version is six lines. */
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
