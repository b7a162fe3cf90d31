/**
 * The named tasks an engine worker runs. Each takes the task's plain-data input (ArtifactRefs, not
 * models) and loads what it needs through the worker's artifact cache.
 */
import { threadId } from 'node:worker_threads';
import { streamMp3Renditions } from '../audio/renditions.js';
import type { SafetyVerdict } from '../engine.js';
import { extractFeaturesFromFile } from '../features/extract.js';
import { generateLyrics } from '../lyrics/generate.js';
import { generateTrack, type GeneratedVocals } from '../music/pipeline.js';
import type { TrackVocals } from '../engine.js';
import { transcodeMp3 } from '../music/transcode.js';
import { embed, nearest, type CatalogEntry } from '../style/nearest.js';
import type { TaskHandlers } from './task-context.js';
import { runTraining } from './train-task.js';

export const TASK_HANDLERS: TaskHandlers = {
  async generateTrack(job, ctx) {
    const model = await ctx.artifact(job.audioModel, 'audioModel');
    const track = await generateTrack(
      {
        context: job.context,
        seed: job.seed,
        maxDurationSec: job.maxDurationSec,
        quality: job.quality,
        model,
        modelVersion: job.audioModel.version,
        label: { stationName: job.stationName, stationTrackId: job.stationTrackId },
        titleWords: job.titleWords,
        lyrics: job.lyrics,
      },
      ctx.progress,
    );
    const mp3 = track.mp3!;
    ctx.transfer(mp3);
    ctx.transfer(track.master);
    ctx.transfer(track.coverPng);
    if (track.vocals) ctx.transfer(track.vocals.stemMp3);
    return {
      master: track.master,
      mp3,
      durationSec: track.durationSec,
      bpm: track.bpm,
      key: track.key,
      mode: track.mode,
      title: track.title,
      waveform: track.waveform,
      coverPng: track.coverPng,
      vocals: track.vocals ? trackVocals(track.vocals) : null,
      timings: track.timings,
    };
  },

  async generateLyrics(job, ctx) {
    const model = await ctx.artifact(job.lyricsModel, 'lyricsModel');
    const lyrics = generateLyrics(model, {
      mood: job.mood,
      theme: job.theme,
      language: job.language,
      structure: job.structure,
      styleArtistIds: job.styleArtistIds,
      seed: job.seed,
      avoidLines: job.avoidLines,
    });
    return { structure: lyrics.structure, title: lyrics.title ?? null, order: lyrics.meta.order, modelVersion: job.lyricsModel.version };
  },

  async checkLyrics({ reference, lyrics, explicitAllowed }, ctx) {
    const filter = await ctx.artifact(reference, 'safetyFilter');
    return verdict(filter.checkLyrics(lyrics, { explicitAllowed }));
  },

  async checkAudio({ reference, features }, ctx) {
    const filter = await ctx.artifact(reference, 'safetyFilter');
    return verdict(filter.checkAudio(features));
  },

  async extractFeatures({ audio, format }) {
    return extractFeaturesFromFile(audio, format);
  },

  async transcode({ audio, quality }) {
    return transcodeMp3(audio, quality);
  },

  async nearest({ styleModel, reference, features, k }, ctx) {
    const model = await ctx.artifact(styleModel, 'styleModel');
    // The catalog's embeddings depend on both artifacts; computed once per pair, then reused.
    const catalog = await ctx.memo(`style-catalog:${styleModel.sha256}:${reference.sha256}`, async (): Promise<CatalogEntry[]> => {
      const { audio } = await ctx.read(reference, 'safetyReference');
      return audio.map((item) => ({ id: item.id, features: item.features, embedding: embed(model, item.features) }));
    });
    return nearest(model, features, catalog, k);
  },

  train: (spec, ctx) => runTraining(spec, ctx),

  async renderRenditions({ master, format, bitrates, sliceFrames, losslessMaster }, ctx) {
    const rendered = await streamMp3Renditions(master, format, bitrates, (chunks) => ctx.emit({ kind: 'renditions', chunks }), {
      shouldStop: ctx.shouldStop,
      sliceFrames,
      losslessMaster,
    });
    if (rendered.losslessMaster) ctx.transfer(rendered.losslessMaster);
    return { ...rendered, threadId };
  },
};

function verdict(assessment: SafetyVerdict): SafetyVerdict {
  const { safety_score, explicit_detected, flagged_categories, playable, details } = assessment;
  return { safety_score, explicit_detected, flagged_categories, playable, details };
}

/** The stem and the sung melody in seconds, as plain data that crosses threads and the wire. */
function trackVocals(vocals: GeneratedVocals): TrackVocals {
  const { stem } = vocals;
  const notes = stem.notes.map((n) => ({ midi: n.midi, startSec: n.startSec, endSec: n.endSec, syllable: n.syllable }));
  const lines = stem.melody.lines.map((line) => {
    const first = stem.melody.syllables[line.firstSyllable].notes[0];
    const lastSyllable = stem.melody.syllables[line.firstSyllable + line.syllableCount - 1];
    return {
      text: line.text,
      startSec: stem.notes[first].startSec,
      endSec: stem.notes[lastSyllable.notes[lastSyllable.notes.length - 1]].endSec,
      syllables: line.syllableCount,
    };
  });
  return { voice: vocals.voice, stemMp3: vocals.stemMp3, notes, lines };
}
