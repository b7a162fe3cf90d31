/**
 * The numbers a training job reports: the saved model version's metrics, and the CPU the job's process uses
 * while it runs (shown with each epoch's progress).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { TrainableModel } from '../../engine/engine.js';
import type { LossCurvePoint } from '../../infra/db/schema/index.js';

/** The model version's metrics: the job's final numbers under stable names, and the trainer's own scores. */
export function modelMetrics(type: TrainableModel, engineMetrics: Record<string, unknown>, curve: LossCurvePoint[]): Record<string, unknown> {
  const { lossCurve: _curve, ...rest } = engineMetrics;
  const last = curve.at(-1);
  return {
    ...rest,
    final_loss: last?.loss ?? (typeof rest.finalLoss === 'number' ? rest.finalLoss : null),
    held_out_loss: last?.held_out_loss ?? null,
    perplexity: type === 'lyrics' ? (typeof rest.perplexity === 'number' ? rest.perplexity : (last?.perplexity ?? null)) : null,
    epochs: last?.epoch ?? 0,
  };
}

/**
 * This process's CPU use between two laps, as an integer % of all the machine's cores: CPU time (user + system,
 * every thread) / (wall time x cores). Wall time is measured, not read from the injectable clock: it is the
 * denominator of a measurement, not a schedule.
 */
export class CpuMeter {
  private cpu = process.cpuUsage();
  private wall = performance.now();

  constructor(private readonly cores = availableParallelism()) {}

  /** The % since the last lap (or since construction), and starts the next lap. */
  lap(): number {
    const cpu = process.cpuUsage(this.cpu);
    const wall = performance.now() - this.wall;
    this.cpu = process.cpuUsage();
    this.wall = performance.now();
    if (wall <= 0) return 0;
    const pct = ((cpu.user + cpu.system) / 1000 / (wall * this.cores)) * 100;
    return Math.max(0, Math.min(100, Math.round(pct)));
  }
}
