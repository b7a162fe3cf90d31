/**
 * What module A's status reads from modules that other parts of the station own. Each port has a
 * neutral default here, replaced at composition time (StationStatusService.useRadioStatus /
 * useTrainingStatus) once the owning module exists.
 */
import type { RadioStatus } from '../events/now-playing.js';

export type TrainingStatus = 'idle' | 'running' | 'paused' | 'failed';

/**
 * The station-level training_status, derived from training jobs by module C:
 * running if any job runs, else paused if one is paused, else failed if the latest finished job failed, else idle.
 */
export interface TrainingStatusSource {
  status(): Promise<TrainingStatus>;
}

/** Until module C provides one: no training jobs, so idle. */
export const idleTrainingStatus: TrainingStatusSource = { status: async () => 'idle' };

/** Until the scheduler provides one: nothing on air, nothing buffered, nobody listening, no fallback. */
export const offAirRadioStatus: RadioStatus = {
  currentTrack: async () => null,
  queueDepth: async () => 0,
  listenerCount: async () => 0,
  fallbackActive: async () => false,
};
