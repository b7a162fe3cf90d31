/**
 * What module A's status reads from modules that other parts of the station own: narrow ports declared
 * here, on the consuming side, and given to StationStatusService at construction (modules.ts builds the
 * scheduler and module C first).
 */
export type TrainingStatus = 'idle' | 'running' | 'paused' | 'failed';

/**
 * The station-level training_status, derived from training jobs by module C:
 * running if any job runs, else paused if one is paused, else failed if the latest finished job failed, else idle.
 */
export interface TrainingStatusSource {
  status(): Promise<TrainingStatus>;
}
