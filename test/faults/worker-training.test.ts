/**
 * A worker killed mid-training (issue 20): an API instance (STATION_ROLE=api, it runs no training) takes a
 * training job through the admin endpoint; `npm run worker` (src/worker.ts) trains it with the real engine and is
 * SIGKILLed after a checkpoint and before the last epoch. A second worker is started: once the dead worker's
 * heartbeat is stale (STATION_TRAINING_STALE_SEC, 20 s by default, 8 s here: the test is about the recovery,
 * not the length of the wait) a sweep puts the job back, and the new worker
 * resumes it from the checkpoint. The job completes once: the loss curve runs 1..N without a repeat, one
 * model version records it, and the restart is counted.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/auth/totp.js';
import { datasetSnapshots } from '../../src/infra/db/schema/index.js';
import { sha256Tagged } from '../../src/lib/canonical-json.js';
import { loadAudioItems } from '../../src/station/dataset/training-data.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { ADMIN } from '../helpers/station.js';
import { buildTrainedStation } from '../helpers/trained-station.js';
import { DATABASE_URL, FaultStation, REDIS_URL, sleep, until } from './support.js';

const EPOCHS = 40;
const STAFF = { STATION_ADMIN_EMAIL: ADMIN.email, STATION_ADMIN_PASSWORD: ADMIN.password, STATION_ADMIN_TOTP_SECRET: ADMIN.totpSecret };
// 8 s: a live worker beats every 2 s, and the job must still read as running a second after the kill.
const STALE = { STATION_TRAINING_STALE_SEC: '8' };
const API = { ...STAFF, ...STALE, STATION_ROLE: 'api', STATION_JOB_LOCK_SEC: '5' };
const WORKER = { ...STAFF, ...STALE, STATION_JOB_LOCK_SEC: '5' };

interface TrainingJob {
  job_id: string;
  status: string;
  current_epoch: number;
  checkpoint_epoch: number;
  total_epochs: number;
  model_id: string | null;
  loss_curve: { epoch: number; loss: number }[];
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('a worker killed mid-training (an API instance and a worker, PostgreSQL and Redis)', () => {
  const station = new FaultStation();
  afterAll(() => station.close());

  it('resumes the job on a restarted worker from its checkpoint and completes it once', { timeout: 180_000 }, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stdout.write(`training-kill: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    await station.createDatabase();
    // A few rendered masters (no model trained: the job under test trains the first) and a snapshot of them,
    // made while the API instance and the worker start (they compile the product: the two together halve the wait).
    const seed = async () => {
      const seeded = await buildTrainedStation({ DATA_DIR: station.dataDir }, { masters: 3, trackSec: 4, database: station.database, models: [] });
      try {
        const audio = (await loadAudioItems(new CatalogTrackReads(seeded.database.db))).map((item) => item.id).sort();
        const [row] = await seeded.database.db
          .insert(datasetSnapshots)
          .values({
            name: 'training-kill',
            config: { test: true },
            audioTrackIds: audio,
            lyricIds: [],
            datasetHash: sha256Tagged(`training-kill:${audio.join()}`),
          })
          .returning();
        return row;
      } finally {
        await seeded.destroy();
      }
    };
    const [snapshot, api, worker] = await Promise.all([seed(), station.start('api', API), station.start('worker-1', WORKER, 'src/worker.ts')]);
    phase('seeded; the API instance and the worker are ready');
    const login = await fetch(`${api.base}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password, totp_code: totpCode(ADMIN.totpSecret, Date.now()) }),
    });
    expect(login.status).toBe(200);
    const { access_token: token, csrf_token: csrf } = (await login.json()) as { access_token: string; csrf_token: string };
    const headers = { authorization: `Bearer ${token}`, 'x-csrf-token': csrf };

    const created = await fetch(`${api.base}/station/v1/training/jobs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        model_type: 'audio',
        dataset_snapshot_id: snapshot.id,
        base_model_id: null,
        hyperparams: { epochs: EPOCHS, learning_rate: 0.05, batch_size: 4, warmup_steps: 1 },
        seed: 3,
      }),
    });
    expect(created.status).toBe(202);
    const { job_id: id } = (await created.json()) as TrainingJob;
    const read = async () => (await (await fetch(`${api.base}/station/v1/training/jobs/${id}`, { headers })).json()) as TrainingJob;

    // Between checkpoints: at least one written, the last epoch not reached.
    const before = await until('the worker checkpoints', read, (job) => job.checkpoint_epoch >= 1 || job.status === 'completed', 60_000);
    const exited = new Promise<void>((resolve) => worker.child.once('exit', () => resolve()));
    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    await exited;
    // Read once the worker is gone: `before` was answered earlier, and on a loaded machine the worker may
    // legitimately train an epoch or two between that answer and the kill. One epoch's write may still be in
    // flight to PostgreSQL when the process dies, hence the one-epoch allowance below.
    const atKill = await read();
    phase(`worker killed at epoch ${atKill.current_epoch} (checkpoint ${before.checkpoint_epoch} when the kill was decided)`);
    expect(before.status).toBe('running');
    expect(before.current_epoch).toBeLessThan(EPOCHS);
    expect(atKill.status).toBe('running');
    await sleep(1000);
    const left = await read();
    expect(left.status).toBe('running'); // nobody trains it (the API instance runs no training), and it is not lost
    expect(left.current_epoch).toBeLessThanOrEqual(atKill.current_epoch + 1);

    await station.start('worker-2', WORKER, 'src/worker.ts');
    phase('second worker ready');
    const done = await until('the job completes', read, (job) => job.status === 'completed' || job.status === 'failed', 120_000);
    phase(`the job ${done.status} ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    expect(done.status).toBe('completed');
    expect(done.loss_curve.map((point) => point.epoch)).toEqual(Array.from({ length: EPOCHS }, (_, i) => i + 1));
    // Resumed, not started over: the epochs up to the checkpoint are the killed worker's.
    expect(done.loss_curve.slice(0, before.checkpoint_epoch)).toEqual(before.loss_curve.slice(0, before.checkpoint_epoch));

    const db = new pg.Client({ connectionString: station.database.url! });
    await db.connect();
    try {
      const job = (await db.query<{ restarts: number }>('select restarts from training_jobs where id = $1', [id])).rows[0];
      expect(job.restarts).toBeGreaterThanOrEqual(1);
      const versions = (await db.query<{ id: string }>(`select id from model_versions where lineage->>'job_id' = $1`, [id])).rows;
      expect(versions).toEqual([{ id: done.model_id }]);
    } finally {
      await db.end();
    }
  });
});
