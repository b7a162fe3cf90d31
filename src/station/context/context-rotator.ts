/**
 * Auto-rotation of the live context (auto_rotate, every STATION_CONTEXT_ROTATION_SEC). `tick(now)` does
 * one step and is what tests drive with a ManualClock; `start()` calls it every few seconds, on the
 * leader instance only. Two instances that both believe they lead still rotate a context only once:
 * a rotation records the context it replaces under a unique constraint.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import { systemTimers, type IntervalTimers } from '../../infra/clock/timers.js';
import type { ContextRepository, ContextRow } from './context.repository.js';
import { musicContextOf, presetContextOf, timeOfDayAt, toView, type ContextService } from './context.service.js';
import { choosePreset, nudge } from './rotation-path.js';

export interface ContextRotatorDeps {
  contexts: ContextService;
  repo: ContextRepository;
  clock: Clock;
  /** Whether this instance runs station-wide background work (the scheduler's leadership). */
  isLeader?: () => boolean | Promise<boolean>;
  intervalMs?: number;
  /** The ticking timer; tests fire it by hand. Real (unref'd) timers by default. */
  timers?: IntervalTimers;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

const DEFAULT_INTERVAL_MS = 5_000;

export class ContextRotator {
  private timer: unknown = null;
  private running: Promise<unknown> | null = null;
  private readonly isLeader: () => boolean | Promise<boolean>;
  private readonly log: ContextRotatorDeps['log'];
  private readonly timers: IntervalTimers;

  constructor(private readonly deps: ContextRotatorDeps) {
    this.isLeader = deps.isLeader ?? (() => true);
    this.log = deps.log;
    this.timers = deps.timers ?? systemTimers;
  }

  /**
   * Rotates when the current context has auto_rotate on and its next_rotation has passed. Returns the
   * new context, or null when nothing was due (or another instance rotated first).
   */
  async tick(now: Date = this.deps.clock.date()): Promise<ContextRow | null> {
    const current = await this.deps.contexts.current();
    if (!current.autoRotate || !current.nextRotation || current.nextRotation.getTime() > now.getTime()) return null;
    const period = timeOfDayAt(now);
    const presets = await this.deps.repo.allPresets();
    const chosen = choosePreset(
      period,
      presets.map((row) => {
        const context = presetContextOf(row);
        return { presetId: row.presetId, name: row.name, context: musicContextOf(context), timeOfDay: context.time_of_day };
      }),
      current.presetId,
    );
    const next = chosen ? chosen.context : nudge(period, musicContextOf(toView(current)), current.timeOfDay);
    const rotated = await this.deps.contexts.rotate(current, next, chosen?.presetId ?? null, now);
    if (rotated) this.log?.info({ context_id: rotated.contextId, preset: chosen?.name ?? null, time_of_day: period }, 'context rotated');
    return rotated;
  }

  /** Ticks every few seconds (leader only) until stop(). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = this.timers.setInterval(() => {
      if (this.running) return;
      this.running = this.guardedTick()
        .catch((error) => this.log?.error({ err: error }, 'context rotation failed'))
        .finally(() => (this.running = null));
    }, this.deps.intervalMs ?? DEFAULT_INTERVAL_MS);
  }

  /** Stops the timer and waits for a tick in progress. */
  async stop(): Promise<void> {
    if (this.timer !== null) this.timers.clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async guardedTick(): Promise<void> {
    if (!(await this.isLeader())) return;
    await this.tick();
  }
}
