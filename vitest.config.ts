import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `npm test` runs everything on the embedded defaults; CI's embedded pass (STATION_SUITE=embedded) leaves out
 * the engine suites its services pass runs (ENGINE_IN_SERVICES below). CI's second pass (STATION_SUITE=services, with
 * DATABASE_URL and REDIS_URL) runs only the suites that touch the database or Redis: the engine's pure
 * audio and language tests would only repeat themselves there, and neither would the browser tests of the
 * web front end (test/web: they drive the same API through pages, the API's own suites cover the databases).
 * The whole-radio scenario (test/e2e: a full demo seed, rendering and training, then live playback) runs on
 * the embedded defaults only: on PostgreSQL it became CI's longest pole (11 minutes on a loaded machine)
 * while its database work is the radio's, covered on PostgreSQL by test/station (radio, scheduler, playout).
 */
const suite = process.env.STATION_SUITE;
const servicesOnly = suite === 'services';

/**
 * Engine suites that need no database and no Redis (pure audio, safety and language), which CI runs in its
 * services pass and leaves out of its embedded pass (STATION_SUITE=embedded): the two passes run side by side,
 * and the embedded one, which runs everything else, was the longer by 100-280 s in every CI run measured
 * (bench/README.md, "The test suites' wall time"). Run once either way; `npm test` alone runs them too.
 */
const ENGINE_IN_SERVICES = ['test/engine/safety/**', 'test/engine/lyrics/**'];

/**
 * The suites that take minutes (they wait on real time: live streams, failovers, restarts, renders), longest
 * first. Vitest orders a run by the durations it cached the last time, and a fresh clone (CI) has none, so it
 * falls back to file size: these small files started last and ran alone at the end of a half-idle machine.
 * Order measured on the CI machine (both suites side by side); a file not listed keeps vitest's order.
 */
const SLOW_FIRST = [
  'test/faults/leader-failover.test.ts',
  'test/faults/worker-training.test.ts',
  'test/e2e/radio.test.ts',
  'test/station/radio.test.ts',
  'test/faults/redis-outage-stream.test.ts',
  'test/faults/readiness.test.ts',
  'test/faults/webhook-redis-restart.test.ts',
  'test/faults/postgres-restart.test.ts',
  'test/engine/lyrics/demo-corpus.test.ts',
  'test/engine/safety/audio-duplicate-calibration.test.ts',
  'test/engine/safety/audio-fingerprint-transforms.test.ts',
  'test/platform/media-object-store.test.ts',
  'test/auth/totp-sealing.test.ts',
  'test/web/admin.test.ts',
  'test/web/studio.test.ts',
  'test/platform/uploads-masters.test.ts',
  'test/station/generation.test.ts',
  'test/webhooks/durability.test.ts',
  'test/auth/connection-limits.test.ts',
  'test/faults/outage-under-load.test.ts',
  'test/engine/music/mix.test.ts',
  'test/foundation/persistence.test.ts',
  'test/station/transparency.test.ts',
  'test/auth/account-throttle.test.ts',
  'test/engine/remote-engine.test.ts',
  'test/foundation/route-fuzz.test.ts',
  'test/foundation/shutdown.test.ts',
  'test/web/listener.test.ts',
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    // Array.prototype.sort is stable: files of equal rank keep the base sequencer's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // test/faults starts real instances on PostgreSQL and Redis: only the services suite has them.
    exclude: servicesOnly
      ? ['test/engine/!(safety|lyrics)/**', 'test/engine/*.test.ts', 'test/demo/**', 'test/web/**', 'test/e2e/**', '**/node_modules/**']
      : ['test/faults/**', ...(suite === 'embedded' ? ENGINE_IN_SERVICES : []), '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: SlowFirstSequencer },
    pool: 'forks',
    // Test files share a worker's module graph instead of importing the whole product again for each file
    // (about 1.8 s of CPU per file, a fifth of CI's CPU time on two cores). Safe because nothing in src
    // keeps process-wide state (ports, not globals) and no test mocks a module or changes the environment.
    isolate: false,
    // Two cores: more workers only fight over the CPU that audio rendering and argon2 need.
    maxWorkers: 2,
    // A 32 MB young generation (V8's default is 16 MB here): the suites allocate fast (station builds, request
    // bodies, PCM buffers) and scavenged twice as often spent 12 % more CPU (test/platform + test/auth alone:
    // 249 s -> 219 s of CPU; 64 MB saved nothing more).
    execArgv: ['--max-semi-space-size=32'],
  },
});
