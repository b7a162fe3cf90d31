/**
 * Offline speech recognition for the listening bench: CMU PocketSphinx (Debian `pocketsphinx`, its
 * `pocketsphinx_continuous` command, with the `pocketsphinx-en-us` acoustic model, language model and
 * dictionary) and espeak-ng as the spoken reference. Audio goes to the recogniser as a 16 kHz 16-bit mono
 * WAV file; its output is one hypothesis line per utterance it segments.
 *
 * Two ways to decode:
 * - open vocabulary: the en-us trigram language model over its 130,000-word dictionary;
 * - closed set: a JSGF grammar that accepts any sequence of the given words (and nothing else).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const HMM = join(MODEL_DIR, 'en-us');
const LM = join(MODEL_DIR, 'en-us.lm.bin');
const DICT = join(MODEL_DIR, 'cmudict-en-us.dict');
export const RECOGNISER_RATE = 16000;

export function recogniserAvailable(): string | null {
  for (const path of [HMM, LM, DICT]) if (!existsSync(path)) return `missing ${path} (apt-get install pocketsphinx pocketsphinx-en-us)`;
  for (const bin of ['pocketsphinx_continuous', 'espeak-ng', 'sox']) {
    try {
      execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'pipe' });
    } catch {
      return `missing ${bin} (apt-get install pocketsphinx pocketsphinx-en-us espeak-ng sox)`;
    }
  }
  return null;
}

let dictionary: Set<string> | null = null;
/** Words the recogniser's dictionary knows (lower case; alternates like "read(2)" folded). */
export function dictionaryWords(): Set<string> {
  if (!dictionary) {
    dictionary = new Set();
    for (const line of readFileSync(DICT, 'utf8').split('\n')) {
      const word = line.split(' ')[0];
      if (word) dictionary.add(word.replace(/\(\d+\)$/, ''));
    }
  }
  return dictionary;
}

/** A 16-bit mono PCM WAV file. */
export function writeWav16(path: string, samples: Float32Array, sampleRate: number): void {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  writeFileSync(path, Buffer.concat([header, data]));
}

function decode(wavPath: string, model: string[]): string[] {
  const out = execFileSync('pocketsphinx_continuous', ['-infile', wavPath, '-hmm', HMM, '-dict', DICT, ...model, '-logfn', '/dev/null'], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return tokens(out);
}

/** Open-vocabulary decoding with the en-us language model: the words heard, in order. */
export function recogniseOpen(wavPath: string): string[] {
  return decode(wavPath, ['-lm', LM]);
}

/** Closed-set decoding: any sequence of `vocabulary` (words the dictionary lacks are left out). */
export function recogniseClosed(wavPath: string, vocabulary: Iterable<string>, grammarPath: string): string[] {
  const known = [...new Set(vocabulary)].filter((w) => dictionaryWords().has(w)).sort();
  writeFileSync(grammarPath, `#JSGF V1.0;\ngrammar closed;\npublic <s> = ( ${known.join(' | ')} )* ;\n`);
  return decode(wavPath, ['-jsgf', grammarPath]);
}

/** espeak-ng (en-us, default rate) speaking `lines`, one after the other, into a recogniser-rate WAV (via sox). */
export function speak(lines: readonly string[], wavPath: string): void {
  const raw = `${wavPath}.espeak.wav`;
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', raw, lines.join('.\n') + '.']);
  // -D: no dither, so the same text gives the same file (dither noise moved the recogniser's figures between runs).
  execFileSync('sox', [raw, '-D', '-r', String(RECOGNISER_RATE), '-c', '1', '-b', '16', wavPath]);
  rmSync(raw);
}

/**
 * espeak-ng speaking each line alone, its silences trimmed, time-stretched (sox `tempo`, WSOLA, pitch kept)
 * to `lengthsSec[i]` when given, padded and joined as the listening bench joins the sung spans (0.15 s
 * before, 0.35 s after, 0.3 s between). With the sung lines' lengths it asks how a speech synthesiser's
 * words fare at the tempo of singing (bench/README.md, Listening, round 6).
 */
export function speakLineByLine(lines: readonly string[], lengthsSec: readonly number[] | null, wavPath: string): void {
  const parts: string[] = [];
  const gap = `${wavPath}.gap.wav`;
  execFileSync('sox', ['-n', '-r', String(RECOGNISER_RATE), '-c', '1', '-b', '16', gap, 'trim', '0', '0.3']);
  lines.forEach((line, i) => {
    const raw = `${wavPath}.${i}.raw.wav`;
    const trimmed = `${wavPath}.${i}.trim.wav`;
    const part = `${wavPath}.${i}.wav`;
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', raw, `${line}.`]);
    const trim = ['silence', '1', '0.01', '0.5%', 'reverse', 'silence', '1', '0.01', '0.5%', 'reverse'];
    execFileSync('sox', [raw, '-D', '-r', String(RECOGNISER_RATE), '-c', '1', '-b', '16', trimmed, ...trim]);
    const spoken = Number(execFileSync('soxi', ['-D', trimmed], { encoding: 'utf8' }));
    const tempo = lengthsSec ? ['tempo', '-s', String(spoken / lengthsSec[i])] : [];
    execFileSync('sox', [trimmed, '-D', part, ...tempo, 'pad', '0.15', '0.35']);
    rmSync(raw);
    rmSync(trimmed);
    parts.push(part);
  });
  execFileSync('sox', [...parts.flatMap((p) => [p, gap]), wavPath]);
  for (const p of [...parts, gap]) rmSync(p);
}

/** Lower-case word tokens (letters and inner apostrophes). */
export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+(?:'[a-z]+)*/g) ?? []).filter((w) => w.length > 0);
}
