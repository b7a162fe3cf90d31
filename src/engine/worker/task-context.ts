/** What a task handler gets from the worker: artifacts, progress, events to the caller, the stop flag. */
import type { ArtifactRef } from '../engine.js';
import type { ProgressFn } from '../types.js';
import type { ArtifactKind, ParsedArtifacts } from './artifact-cache.js';
import type { TaskEvent, TaskInput, TaskName, TaskOutput } from './protocol.js';

export interface TaskContext {
  /** Parsed artifact, cached by sha256 across tasks of this worker. */
  artifact<K extends ArtifactKind>(ref: ArtifactRef, kind: K): Promise<ParsedArtifacts[K]>;
  /** Parsed artifact, verified but not cached (datasets, references read once per derived value). */
  read<K extends ArtifactKind>(ref: ArtifactRef, kind: K): Promise<ParsedArtifacts[K]>;
  /** A value derived from artifacts, cached under `key` (which must name the hashes it depends on). */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Throttled progress to the caller. */
  progress: ProgressFn;
  /** Hands an event to the caller's hook and resolves once it was handled (rejects if the hook threw). */
  emit(event: TaskEvent): Promise<void>;
  /** True once the caller asked the task to stop (readable inside synchronous loops). */
  shouldStop(): boolean;
  /** Moves this buffer to the main thread with the result instead of copying it. */
  transfer(bytes: Uint8Array): void;
}

export type TaskHandler<N extends TaskName> = (input: TaskInput<N>, ctx: TaskContext) => Promise<TaskOutput<N>>;
export type TaskHandlers = { [N in TaskName]: TaskHandler<N> };
