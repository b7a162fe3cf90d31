import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs everything on the embedded defaults. CI's second pass (STATION_SUITE=services, with
 * DATABASE_URL and REDIS_URL) runs only the suites that touch the database or Redis: the engine's pure
 * audio and language tests would only repeat themselves there.
 */
const servicesOnly = process.env.STATION_SUITE === 'services';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: servicesOnly ? ['test/engine/**', 'test/demo/**', '**/node_modules/**'] : ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only fight over the CPU that audio rendering and argon2 need.
    maxWorkers: 2,
  },
});
