import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs everything on the embedded defaults. CI's second pass (STATION_SUITE=services, with
 * DATABASE_URL and REDIS_URL) runs only the suites that touch the database or Redis: the engine's pure
 * audio and language tests would only repeat themselves there, and neither would the browser tests of the
 * web front end (test/web: they drive the same API through pages, the API's own suites cover the databases).
 * The whole-radio scenario (test/e2e: a full demo seed, rendering and training, then live playback) runs on
 * the embedded defaults only: on PostgreSQL it became CI's longest pole (11 minutes on a loaded machine)
 * while its database work is the radio's, covered on PostgreSQL by test/station (radio, scheduler, playout).
 */
const servicesOnly = process.env.STATION_SUITE === 'services';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // test/faults starts real instances on PostgreSQL and Redis: only the services suite has them.
    exclude: servicesOnly ? ['test/engine/**', 'test/demo/**', 'test/web/**', 'test/e2e/**', '**/node_modules/**'] : ['test/faults/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Test files share a worker's module graph instead of importing the whole product again for each file
    // (about 1.8 s of CPU per file, a fifth of CI's CPU time on two cores). Safe because nothing in src
    // keeps process-wide state (ports, not globals) and no test mocks a module or changes the environment.
    isolate: false,
    // Two cores: more workers only fight over the CPU that audio rendering and argon2 need.
    maxWorkers: 2,
  },
});
