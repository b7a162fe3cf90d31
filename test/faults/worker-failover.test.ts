/**
 * Separate workers (issue 20): an API instance (STATION_ROLE=api) takes a generation request and runs none of
 * the engine's jobs; `npm run worker` (src/worker.ts) runs it. The worker is SIGKILLed mid-generation: the
 * job's BullMQ lock lapses (STATION_JOB_LOCK_SEC), another worker gets it as stalled and renders it. The
 * generation completes once: never lost, never doubled (one registry record, one completion).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTrainedStation } from '../helpers/trained-station.js';
import { DATABASE_URL, FaultStation, REDIS_URL, serviceHeaders, sleep, until } from './support.js';

interface Generation {
  generation_id: string;
  status: string;
  progress_pct: number;
  station_track_id: string | null;
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('a worker killed mid-generation (PostgreSQL and Redis)', () => {
  const station = new FaultStation();
  afterAll(() => station.close());

  it('leaves the job to the workers, and a second worker finishes it once after the first is killed', { timeout: 300_000 }, async () => {
    await station.createDatabase();
    // A trained audio model and a few masters in the shared database and DATA_DIR (the test suites' own shortcut).
    const seeded = await buildTrainedStation({ DATA_DIR: station.dataDir }, { masters: 3, trackSec: 4, database: station.database, models: ['audio'] });
    await seeded.destroy();

    const roles = { STATION_JOB_LOCK_SEC: '5' };
    const api = await station.start('api', { ...roles, STATION_ROLE: 'api' });
    const csrf = ((await (await fetch(`${api.base}/api/auth/csrf`, { headers: serviceHeaders })).json()) as { csrf_token: string }).csrf_token;
    const post = await fetch(`${api.base}/station/v1/generate/track`, {
      method: 'POST',
      headers: { ...serviceHeaders, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ max_duration_sec: 20, seed: 7 }),
    });
    expect(post.status).toBe(202);
    const { generation_id: id } = (await post.json()) as Generation;
    const read = async () => (await (await fetch(`${api.base}/station/v1/generate/track/${id}`, { headers: serviceHeaders })).json()) as Generation;

    // The API instance runs no generation: the job waits for a worker.
    await sleep(3000);
    expect((await read()).status).toBe('pending');

    const first = await station.start('worker-1', roles, 'src/worker.ts');
    await until('the worker renders', read, (g) => g.status === 'in_progress' && g.progress_pct > 0, 60_000).catch(async (error: unknown) => {
      throw new Error(
        `${String(error)}; generation ${JSON.stringify(await read())}; worker: ${first.output().slice(-3000)}; api: ${api.output().slice(-2000)}`,
      );
    });
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    await sleep(1000);
    expect((await read()).status).toBe('in_progress'); // nobody else runs it yet, and it is not lost

    await station.start('worker-2', roles, 'src/worker.ts');
    const done = await until('another worker finishes it', read, (g) => g.status === 'complete' || g.status === 'failed', 90_000);
    process.stdout.write(`worker-kill: the generation completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after its worker was killed\n`);
    expect(done.status).toBe('complete');
    expect(done.station_track_id).not.toBeNull();

    const db = new pg.Client({ connectionString: station.database.url! });
    await db.connect();
    try {
      const records = await db.query('select station_track_id from registry_tracks where generation_id = $1', [id]);
      expect(records.rows).toEqual([{ station_track_id: done.station_track_id }]);
    } finally {
      await db.end();
    }
  });
});
