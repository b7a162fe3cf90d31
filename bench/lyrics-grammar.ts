/**
 * Do generated lyrics read as lines a songwriter wrote? 100 English (or, with --language es, Spanish) songs from the model trained on the
 * station's corpus (src/demo/content, default hyperparameters, seed 1), in 10 sessions of 10 songs (each song
 * gets the session's earlier lines as `avoidLines`, as the station passes them), measured by:
 *
 *   grammatical lines   share of distinct lines (a chorus counted once) with no fault found by the
 *                       compromise-based measure in bench/support/grammaticality.ts (Spanish: the
 *                       es-compromise-based bench/support/grammaticality-es.ts); target >= 95%
 *   word overuse        songs where a content word occurs more than 3 times outside the chorus; the most
 *                       any word occurs outside a chorus
 *   repeated lines      lines sung in two songs of the same session; in two songs of all 100
 *   off-mood words      lines of energetic/joyful/euphoric songs containing slow/sleepy words
 *   ms per song         mean and worst CPU time of generateLyrics
 *
 * Exits 1 when the grammatical share is under 95%, a song overuses a word, or a session repeats a line.
 * Run: npx tsx bench/lyrics-grammar.ts [--language es] [--lines] [--samples] [--model=FILE]
 *   --lines prints every failing line with its faults, --samples the first two songs, --model=FILE uses a
 *   saved LyricsModel JSON instead of training one (the first run with --model=FILE saves it there).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { demoLyricsCorpus } from '../src/demo/content/index.js';
import { DEFAULT_LYRICS_HYPERPARAMS, trainLyricsModel } from '../src/engine/lyrics/train.js';
import { generateLyrics, type GenerateLyricsRequest } from '../src/engine/lyrics/generate.js';
import type { LyricsModel } from '../src/engine/lyrics/model.js';
import { normaliseForMatching, tokenizeLine } from '../src/engine/lyrics/tokenizer.js';
import { grammarFaults as englishFaults, type GrammarFault } from './support/grammaticality.js';
import { grammarFaultsEs } from './support/grammaticality-es.js';

const SONGS = 100;
const SESSION = 10;
const STRUCTURE = 'verse-chorus-verse-chorus-bridge-chorus';
const REQUESTS: Array<[string[], string]> = [
  [['energetic', 'joyful'], 'summer'],
  [['melancholic'], 'leaving home'],
  [['romantic', 'hopeful'], 'first love'],
  [['restless'], 'city nights'],
  [['calm', 'dreamy'], 'the sea'],
  [['euphoric'], 'dancing'],
  [['nostalgic'], 'winter'],
  [['defiant', 'energetic'], 'independence'],
  [['melancholic', 'calm'], 'rain'],
  [['hopeful', 'warm'], 'friendship'],
  [['dreamy'], 'stars'],
  [['focused'], 'late-night studying'],
];
const languageArg = process.argv.indexOf('--language');
const LANGUAGE = languageArg >= 0 ? process.argv[languageArg + 1] : 'en';
const grammarFaults = LANGUAGE === 'es' ? grammarFaultsEs : englishFaults;
const UPBEAT = new Set(['energetic', 'joyful', 'euphoric']);
const SLOW_WORDS = new Set(
  LANGUAGE === 'es'
    ? ['lento', 'lenta', 'despacio', 'dormir', 'duerme', 'duermen', 'sueño', 'cansado', 'cansada', 'silencio', 'calma']
    : ['slow', 'slowly', 'sleep', 'sleepy', 'asleep', 'quiet', 'quietly', 'tired', 'drowsy', 'lullaby', 'hush'],
);
const SPANISH_FUNCTION_WORDS =
  'el la los las un una unos unas lo de del al a en y e o u ni pero sino que con por para sin sobre entre hasta desde hacia contra tras ' +
  'como cuando donde si no ya mi mis tu tus su sus me te se le les nos os yo tú él ella nosotros nosotras ellos ellas usted ustedes ' +
  'es son soy eres somos era eran fue fueron ser estar está están estoy estás estaba hay ha he has han muy más tan todo toda todos ' +
  'todas este esta estos estas ese esa esos esas aquí allí así cada otro otra otros otras porque aunque nunca siempre también';
const FUNCTION_WORDS = new Set(
  LANGUAGE === 'es'
    ? SPANISH_FUNCTION_WORDS.split(' ')
    : (
        'a an the this that these those my your his her its our their i me you he him she we us they them it what who ' +
        'and or but so if when while as than then because till until of to in on at by for from with into onto upon over under ' +
        'through across along around above below behind beneath between beside toward towards up down out off away back ' +
        'is are am was were be been being do does did have has had will would can could should shall may might must not no ' +
        "i'm you're we're they're it's that's don't can't won't i'll i've i'd let's all every some just still too very here there now again " +
        'never ever always only one own like'
      ).split(' '),
);
const printLines = process.argv.includes('--lines');
const printSamples = process.argv.includes('--samples');

async function main(): Promise<void> {
  const trainStart = Date.now();
  const modelFile = process.argv.find((a) => a.startsWith('--model='))?.slice('--model='.length);
  let model: LyricsModel;
  if (modelFile && existsSync(modelFile)) model = JSON.parse(readFileSync(modelFile, 'utf8')) as LyricsModel;
  else {
    model = await trainLyricsModel(demoLyricsCorpus, DEFAULT_LYRICS_HYPERPARAMS, { seed: 1 });
    console.log(`trained in ${((Date.now() - trainStart) / 1000).toFixed(1)} s`);
    if (modelFile) writeFileSync(modelFile, JSON.stringify(model));
  }
  // Calibration: the same measure on the songwriters' own lines in the language.
  const corpusLines = demoLyricsCorpus.filter((d) => d.language === LANGUAGE).flatMap((d) => d.sections.flatMap((s) => s.lines));
  const corpusPassed = corpusLines.filter((l) => grammarFaults(l).length === 0).length;
  console.log(`corpus lines passing the measure: ${corpusPassed}/${corpusLines.length} = ${((corpusPassed / corpusLines.length) * 100).toFixed(1)}%`);

  let lines = 0;
  let passed = 0;
  const faultCounts: Record<GrammarFault, number> = { verb: 0, determiner: 0, agreement: 0, doubled: 0 };
  let overusingSongs = 0;
  let worstOveruse = 0;
  const overused = new Map<string, number>();
  let sessionRepeats = 0;
  const songsByLine = new Map<string, Set<number>>();
  let offMood = 0;
  let grammarLines = 0;
  let rhymed = 0;
  let rhymesAsked = 0;
  const cpu: number[] = [];
  let avoid: string[] = [];

  for (let i = 0; i < SONGS; i++) {
    if (i % SESSION === 0) avoid = [];
    const [mood, theme] = REQUESTS[i % REQUESTS.length];
    const request: GenerateLyricsRequest = { mood, theme, language: LANGUAGE, structure: STRUCTURE, seed: 1000 + i, avoidLines: avoid };
    const before = process.cpuUsage();
    const song = generateLyrics(model, request);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    grammarLines += (song.meta as { grammarLines?: number }).grammarLines ?? 0;
    rhymed += song.meta.rhymedPairs;
    rhymesAsked += song.meta.rhymePairsAsked;
    if (printSamples && i < 2) console.log(`--- ${mood.join(', ')} / ${theme}\n${song.meta.order.map((k) => `[${k}]\n${song.structure[k]}`).join('\n')}`);

    const counts = new Map<string, number>();
    const songLines = new Set<string>();
    for (const [key, text] of Object.entries(song.structure)) {
      const kind = song.meta.sections[key].kind;
      for (const line of text.split('\n')) {
        const norm = normaliseForMatching(line);
        if (songLines.has(norm)) continue; // the hook line opens and closes its chorus: one line
        songLines.add(norm);
        lines++;
        const faults = grammarFaults(line);
        if (faults.length === 0) passed++;
        else if (printLines) console.log(`  [${faults.join(',')}] ${line}`);
        for (const f of faults) faultCounts[f]++;
        const words = tokenizeLine(line, LANGUAGE);
        if (mood.some((m) => UPBEAT.has(m)) && words.some((w) => SLOW_WORDS.has(w))) offMood++;
        if (kind === 'chorus' || kind === 'hook' || kind === 'refrain') continue;
        for (const w of words) if (!FUNCTION_WORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
      }
    }
    const worst = Math.max(0, ...counts.values());
    worstOveruse = Math.max(worstOveruse, worst);
    if (worst > 3) overusingSongs++;
    for (const [w, c] of counts) if (c > 3) overused.set(w, (overused.get(w) ?? 0) + 1);
    for (const norm of songLines) {
      if (avoid.some((a) => normaliseForMatching(a) === norm)) sessionRepeats++;
      let songs = songsByLine.get(norm);
      if (!songs) songsByLine.set(norm, (songs = new Set()));
      songs.add(i);
    }
    avoid = [...avoid, ...Object.values(song.structure).flatMap((t) => t.split('\n'))];
  }

  const share = passed / lines;
  const acrossAll = [...songsByLine.values()].filter((s) => s.size > 1).length;
  const topOverused = [...overused.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([w, n]) => `${w} (${n})`)
    .join(', ');
  const mean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
  console.log(`songs ${SONGS} (sessions of ${SESSION}), distinct lines ${lines}`);
  console.log(
    `grammatical lines: ${passed}/${lines} = ${(share * 100).toFixed(1)}%   faults: ${Object.entries(faultCounts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(
    `songs with a content word > 3 times outside the chorus: ${overusingSongs}; most uses of one word: ${worstOveruse}${topOverused ? `; words: ${topOverused}` : ''}`,
  );
  console.log(`lines repeated within a session: ${sessionRepeats}; lines sung in 2+ of the 100 songs: ${acrossAll}`);
  console.log(`lines written inside the learned grammar: ${grammarLines}/${lines}; rhymed pairs ${rhymed}/${rhymesAsked}`);
  console.log(`upbeat-song lines with slow/sleepy words: ${offMood}`);
  console.log(`generateLyrics CPU ms per song: mean ${mean.toFixed(0)}, worst ${Math.max(...cpu).toFixed(0)}`);
  if (share < 0.95 || overusingSongs > 0 || sessionRepeats > 0) process.exitCode = 1;
}

await main();
