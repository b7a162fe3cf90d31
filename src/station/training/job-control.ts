/**
 * What the API asked a running job to do (pause, cancel), read from the database every CONTROL_POLL_MS or at
 * once when the service publishes a nudge; every HEARTBEAT_MS the read also refreshes the worker's heartbeat.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { TrainingJobRow, TrainingJobsRepository } from './repository.js';

const CONTROL_POLL_MS = 500;
const HEARTBEAT_MS = 2_000;

export class JobControl {
  pause = false;
  cancel = false;
  private timer: NodeJS.Timeout | null = null;
  private lastBeat = 0;
  private inFlight: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly repo: TrainingJobsRepository,
    private readonly jobId: string,
    private readonly workerId: string,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), CONTROL_POLL_MS);
    this.timer.unref();
  }

  /** Reads the job's flags now; a call during a read runs another one after it, so no request is missed. */
  poll(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = this.read().finally(() => {
      this.inFlight = null;
      if (this.again) {
        this.again = false;
        void this.poll();
      }
    });
    return this.inFlight;
  }

  private async read(): Promise<void> {
    try {
      const now = this.clock.now();
      if (this.lastBeat > 0 && now - this.lastBeat < HEARTBEAT_MS) {
        // Between heartbeats a plain read is enough.
        this.apply(await this.repo.find(this.jobId));
      } else {
        this.lastBeat = now;
        this.apply(await this.repo.beat(this.jobId, this.workerId, this.clock.date()));
      }
    } catch {
      // A failed poll changes nothing; the next one tries again.
    }
  }

  private apply(row: Pick<TrainingJobRow, 'status' | 'pauseRequested' | 'cancelRequested'> | null): void {
    if (!row) {
      this.cancel = true; // deleted, or taken over by another worker: stop either way
      return;
    }
    this.pause = row.pauseRequested;
    this.cancel = row.cancelRequested || row.status === 'cancelled';
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
