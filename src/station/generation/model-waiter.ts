/**
 * Runs the generations and lyrics that were accepted before the first production model of their type was
 * deployed. Every instance looks every few seconds (a deploy may happen on any instance, through the API or
 * the demo seed); binding a waiting job to the model is a conditional update, so exactly one instance
 * starts each. State is all in the database, so waiting work survives a restart.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { IntervalTimers } from '../../infra/clock/timers.js';
import { systemTimers } from '../../infra/clock/timers.js';
import type { LyricsService } from '../lyrics/lyrics.service.js';
import type { GenerationService } from './generation.service.js';

export const MODEL_WAIT_POLL_MS = 2_000;

export class ModelWaiter {
  private handle: unknown = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly generations: GenerationService,
    private readonly lyrics: LyricsService,
    private readonly log: FastifyBaseLogger,
    private readonly timers: IntervalTimers = systemTimers,
  ) {}

  start(): void {
    if (this.handle) return;
    this.handle = this.timers.setInterval(() => void this.tick(), MODEL_WAIT_POLL_MS);
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.handle) this.timers.clearInterval(this.handle);
    this.handle = null;
    await this.running;
  }

  /** One look at the waiting work; calls never overlap. */
  tick(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        await this.generations.wakeWaiting();
        await this.lyrics.wakeWaiting();
      } catch (error) {
        this.log.warn({ err: error }, 'waking work that waits for a model failed');
      }
    });
    return this.running;
  }
}
