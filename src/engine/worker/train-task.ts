/**
 * The 'train' task: dispatches a TrainingSpec to the trainer of its model type and maps the trainer's
 * callbacks onto the engine's events (TrainingEpoch, checkpoint) and its result onto TrainingResult.
 *
 *   audio           music/audio-model-training.ts trainAudioModel   dataset {id, genre, mood[], features}[]
 *   lyrics          lyrics/train.ts trainLyricsModel                dataset LyricsDocument[]
 *   style_embedding style/train.ts trainStyleEmbedding             dataset {id, genre, mood[], features}[]
 *
 * Every trainer checkpoints after each epoch and checks shouldStop after it; a stopped run returns
 * artifact null (resume from the last checkpoint), a finished one the model as a JSON value.
 */
import type { TrainingEpoch, TrainingResult, TrainingSpec } from '../engine.js';
import { EngineError } from '../errors.js';
import { DEFAULT_LYRICS_HYPERPARAMS, trainLyricsModel, type LyricsTrainingCheckpoint } from '../lyrics/train.js';
import type { TrainingItem } from '../compose/audio-model.js';
import { trainAudioModel, type TrainingCheckpoint } from '../music/audio-model-training.js';
import type { LyricsDocument } from '../types.js';
import type { StyleCheckpoint, StyleTrainingItem } from '../style/model.js';
import { trainStyleEmbedding } from '../style/train.js';
import type { TaskContext } from './task-context.js';

export async function runTraining(spec: TrainingSpec, ctx: TaskContext): Promise<TrainingResult> {
  switch (spec.modelType) {
    case 'audio':
      return trainAudio(spec, ctx);
    case 'lyrics':
      return trainLyrics(spec, ctx);
    case 'style_embedding':
      return trainStyle(spec, ctx);
    default:
      throw new EngineError('INVALID_INPUT', `unknown model type "${String(spec.modelType)}"`, { stage: 'train' });
  }
}

async function trainAudio(spec: TrainingSpec, ctx: TaskContext): Promise<TrainingResult> {
  const items = (await ctx.read(spec.dataset, 'dataset')) as TrainingItem[];
  const base = spec.base ? await ctx.artifact(spec.base, 'audioModel') : undefined;
  const progress = epochProgress(ctx, spec);
  // trainAudioModel does not await onEpoch; the checkpoint that follows waits for it, keeping the order.
  let epochHandled: Promise<void> = Promise.resolve();
  const result = await trainAudioModel(items, spec.hyperparams, {
    base,
    resumeFrom: (spec.resumeFrom as TrainingCheckpoint | null) ?? undefined,
    seed: spec.seed,
    onEpoch(epoch, loss, detail) {
      epochHandled = ctx.emit({ kind: 'epoch', epoch: { epoch, loss, heldOutLoss: detail.heldOutLoss, perplexity: null } });
      epochHandled.catch(() => {}); // surfaced by the await in onCheckpoint
    },
    async onCheckpoint(checkpoint) {
      await epochHandled;
      await ctx.emit({ kind: 'checkpoint', checkpoint });
      progress(checkpoint.epoch);
    },
    shouldStop: ctx.shouldStop,
  });
  const { model } = result;
  return {
    artifact: result.completed ? model : null,
    stopped: !result.completed,
    metrics: {
      epochsCompleted: result.checkpoint.epoch,
      finalLoss: result.lossCurve.at(-1)?.trainLoss ?? null,
      heldOutLoss: result.lossCurve.at(-1)?.heldOutLoss ?? null,
      trackCount: items.length,
      transitionsObserved: model.transitionsObserved,
      lossCurve: result.lossCurve,
    },
  };
}

async function trainLyrics(spec: TrainingSpec, ctx: TaskContext): Promise<TrainingResult> {
  const docs = (await ctx.read(spec.dataset, 'dataset')) as LyricsDocument[];
  const base = spec.base ? await ctx.artifact(spec.base, 'lyricsModel') : undefined;
  const model = await trainLyricsModel(
    docs,
    { ...spec.hyperparams, dropout: spec.hyperparams.dropout ?? DEFAULT_LYRICS_HYPERPARAMS.dropout },
    {
      base,
      resumeFrom: (spec.resumeFrom as LyricsTrainingCheckpoint | null) ?? undefined,
      seed: spec.seed,
      onEpoch: (e) =>
        ctx.emit({ kind: 'epoch', epoch: { epoch: e.epoch, loss: e.loss, heldOutLoss: finiteOrNull(e.heldOutLoss), perplexity: finiteOrNull(e.perplexity) } }),
      onCheckpoint: (checkpoint) => ctx.emit({ kind: 'checkpoint', checkpoint }),
      shouldStop: ctx.shouldStop,
      onProgress: ctx.progress,
    },
  );
  const last = model.training.lossCurve.at(-1);
  return {
    artifact: model.training.stopped ? null : model,
    stopped: model.training.stopped,
    metrics: {
      epochsCompleted: model.training.epochsCompleted,
      finalLoss: last?.loss ?? null,
      heldOutLoss: finiteOrNull(last?.heldOutLoss),
      /** Held-out perplexity of the model as generation uses it (Kneser-Ney), and what it must beat. */
      perplexity: model.metrics.heldOutPerplexity,
      neuralPerplexity: model.metrics.neuralPerplexity,
      interpolatedPerplexity: model.metrics.interpolatedPerplexity,
      unigramPerplexity: model.metrics.unigramPerplexity,
      languages: model.languages,
      modelVersion: model.version,
      lossCurve: model.training.lossCurve,
    },
  };
}

async function trainStyle(spec: TrainingSpec, ctx: TaskContext): Promise<TrainingResult> {
  const items = (await ctx.read(spec.dataset, 'dataset')) as StyleTrainingItem[];
  const base = spec.base ? await ctx.artifact(spec.base, 'styleModel') : undefined;
  const progress = epochProgress(ctx, spec);
  const model = await trainStyleEmbedding(items, spec.hyperparams, {
    base,
    resumeFrom: (spec.resumeFrom as StyleCheckpoint | null) ?? undefined,
    seed: spec.seed,
    async onEpoch({ checkpoint, ...e }) {
      const epoch: TrainingEpoch = { epoch: e.epoch, loss: e.trainLoss, heldOutLoss: e.heldOutLoss, perplexity: null };
      await ctx.emit({ kind: 'epoch', epoch });
      await ctx.emit({ kind: 'checkpoint', checkpoint });
      progress(e.epoch);
    },
    shouldStop: ctx.shouldStop,
  });
  const m = model.metrics;
  return {
    artifact: model.stoppedEarly ? null : model,
    stopped: model.stoppedEarly,
    metrics: {
      epochsCompleted: model.epochsCompleted,
      finalLoss: Number.isFinite(m.finalTrainLoss) ? m.finalTrainLoss : null,
      heldOutLoss: m.finalHeldOutLoss,
      precisionAtK: m.genrePrecisionAtK,
      baselinePrecisionAtK: m.baselinePrecisionAtK,
      k: m.k,
      trainItems: m.trainItems,
      heldOutItems: m.heldOutItems,
      lossCurve: m.lossCurve,
    },
  };
}

/** Progress by completed epochs, with an ETA from this run's pace. */
function epochProgress(ctx: TaskContext, spec: TrainingSpec): (epochsDone: number) => void {
  const started = Date.now();
  let firstEpoch: number | null = null;
  return (epochsDone) => {
    firstEpoch ??= epochsDone - 1;
    const ranEpochs = Math.max(1, epochsDone - firstEpoch);
    const secondsPerEpoch = (Date.now() - started) / 1000 / ranEpochs;
    ctx.progress(Math.min(100, (epochsDone / spec.hyperparams.epochs) * 100), secondsPerEpoch * Math.max(0, spec.hyperparams.epochs - epochsDone));
  };
}

function finiteOrNull(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}
