/**
 * Failover without dead air, and a worker's job never lost nor doubled (issue 20). Three API instances
 * (STATION_ROLE=api) and one worker (`npm run worker`, src/worker.ts) on PostgreSQL and Redis share a
 * station; a listener streams from a follower and every survivor holds a now-playing WebSocket.
 *
 * - A generation is requested: the API instances run none of it (it waits for a worker); the worker starts
 *   it and is SIGKILLed mid-generation; its BullMQ lock lapses (STATION_JOB_LOCK_SEC) and the restarted worker
 *   gets the job as stalled and renders it: it completes once, one registry record.
 * - Meanwhile the leader is SIGKILLed in the middle of a track. Measured on the follower's byte stream: the
 *   longest gap between two received chunks, and when the next track starts against when the timeline had it
 *   due. Then the running order in the database: every slot that started did so once, none was skipped, one
 *   play recorded each.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FileBlobStore } from '../../src/infra/blobs/blob-store.js';
import { buildTrainedStation } from '../helpers/trained-station.js';
import { parseMediaPlaylist } from '../../src/station/stream/hls-segmenter.js';
import {
  DATABASE_URL,
  FaultStation,
  REDIS_URL,
  expectRunningOrder,
  getJson,
  listen,
  maxGap,
  serviceHeaders,
  signUpListener,
  sleep,
  until,
  watchCards,
  type Card,
} from './support.js';

const TRACK_SEC = 20;
const CROSSFADE_SEC = 3;
/** API instances leave generation to workers; a dead worker's job is free again 5 s after its last lock renewal. */
const API = { STATION_ROLE: 'api', STATION_JOB_LOCK_SEC: '5' };
const WORKER = { STATION_JOB_LOCK_SEC: '5' };

interface Generation {
  generation_id: string;
  status: string;
  progress_pct: number;
  station_track_id: string | null;
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('leader and worker failover (3 instances and a worker, PostgreSQL and Redis)', () => {
  const station = new FaultStation();
  afterAll(() => station.close());

  it(
    "keeps a follower's stream flowing and the next track on time when the leader is killed mid-track, and a killed worker's job done once",
    { timeout: 420_000 },
    async () => {
      const t0 = Date.now();
      const phase = (what: string) => process.stdout.write(`leader-kill: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      await station.createDatabase();
      // A trained audio model in the shared database and DATA_DIR (the test suites' own shortcut); its few short
      // masters are taken off the air so the radio plays only the tones the kill is timed against.
      const seeded = await buildTrainedStation({ DATA_DIR: station.dataDir }, { masters: 3, trackSec: 4, database: station.database, models: ['audio'] });
      await seeded.destroy();
      await station.seed({ trackCount: 6, trackSec: TRACK_SEC, crossfadeSec: CROSSFADE_SEC });
      await withDb(station.database.url!, (db) => db.query(`update tracks set status = 'removed' where audio_blob_key not like 'catalog/fault-%'`));
      phase('seeded');
      const leader = await station.start('a', API);
      const playing = await until(
        'the leader plays a track',
        () => getJson<Card | null>(`${leader.base}/station/v1/radio/now-playing`),
        (r) => r.status === 200 && !!r.body?.title,
        60_000,
      );
      expect(playing.body).not.toBeNull();
      phase('the leader plays');

      // A generation, taken by an API instance: it waits for a worker while the other instances start.
      const csrf = ((await (await fetch(`${leader.base}/api/auth/csrf`, { headers: serviceHeaders })).json()) as { csrf_token: string }).csrf_token;
      const post = await fetch(`${leader.base}/station/v1/generate/track`, {
        method: 'POST',
        headers: { ...serviceHeaders, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ max_duration_sec: 20, seed: 7 }),
      });
      expect(post.status).toBe(202);
      const { generation_id: id } = (await post.json()) as Generation;
      const [follower, other] = await Promise.all([station.start('b', API), station.start('c', API)]);
      phase('the followers are ready');
      const read = async () => (await (await fetch(`${follower.base}/station/v1/generate/track/${id}`, { headers: serviceHeaders })).json()) as Generation;
      expect((await read()).status).toBe('pending'); // three API instances, none runs it

      const worker = await station.start('worker-1', WORKER, 'src/worker.ts');
      await until('the worker renders', read, (g) => g.status === 'in_progress' && g.progress_pct > 0, 90_000);
      worker.child.kill('SIGKILL');
      const workerKilledAt = Date.now();
      phase('worker killed mid-generation');
      await sleep(1000);
      expect((await read()).status).toBe('in_progress'); // nobody else runs it yet, and it is not lost

      const token = await signUpListener(leader);
      const watchers = [watchCards(follower, token), watchCards(other, token)];

      const info = await getJson<{ stream_url: string }>(`${follower.base}/station/v1/radio/stream-info`);
      const listener = listen(info.body.stream_url);
      await until(
        'the follower streams',
        () => listener.bytes(),
        (n) => n > 32_000,
        20_000,
      );

      // Mid-track: at least 4 s into it and at least 9 s before the next one is due.
      const current = await until(
        'the leader is mid-track',
        async () => (await getJson<Card | null>(`${follower.base}/station/v1/radio/now-playing`)).body,
        (card) => {
          if (!card) return false;
          const elapsed = Date.now() - Date.parse(card.started_at);
          return elapsed > 4000 && elapsed < (TRACK_SEC - CROSSFADE_SEC - 9) * 1000 + 4000;
        },
        45_000,
      );
      phase('mid-track');
      const dueMs = Date.parse(current!.started_at) + (current!.duration_sec - CROSSFADE_SEC) * 1000;
      const killedAt = Date.now();
      leader.child.kill('SIGKILL');

      const next = await until(
        'the next track starts on both survivors',
        () => watchers.map((w) => w.cards.find((c) => c.card.title !== current!.title && Date.parse(c.card.started_at) > Date.parse(current!.started_at))),
        (found) => found.every(Boolean),
        40_000,
      );
      await sleep(2000);
      const until2 = Date.now();
      listener.close();
      for (const watcher of watchers) watcher.close();
      // The worker restarts once the stream across the kill is measured. Started before the kill, its start (the
      // product imported through tsx: about 5.5 s of CPU) and then its render shared this machine's two cores with
      // the instances at the very moment measured, and the follower's stream stalled 2.5 s in one full run; in a
      // deployment the worker runs beside them on its own machine. Its job waits, locked by the dead worker, either way.
      const restarted = station.start('worker-2', WORKER, 'src/worker.ts');

      const gapMs = maxGap(listener.arrivals, killedAt, until2);
      const nextAt = Date.parse(next[0]!.card.started_at);
      const lateMs = nextAt - dueMs;
      const cardSkewMs = Math.abs(next[0]!.at - next[1]!.at);
      process.stdout.write(
        `leader-kill: max byte gap ${gapMs} ms on the follower; next track ${((nextAt - killedAt) / 1000).toFixed(1)} s after the kill, ` +
          `${lateMs} ms against its due time; cards on the survivors ${cardSkewMs} ms apart\n`,
      );

      // HLS: the new leader continued the dead one's playlist (one timeline, numbers consecutive), with segments
      // from both sides of the kill in it. Frames are consecutive too, except where the new leader joined the
      // station less than a segment before the kill (here a few seconds): it never had the start of the segment
      // the dead leader had not written, so that one is cut short and marked as a discontinuity, never overlapping.
      const blobs = new FileBlobStore(join(station.dataDir, 'blobs'));
      const listed = await until(
        'the HLS playlist has a segment heard after the takeover',
        async () => parseMediaPlaylist((await blobs.get('hls/live/playlist.m3u8')).toString('utf8')).segments,
        (segments) => segments.some((segment) => segment.heardAt > killedAt + 6000),
        30_000,
      );
      expect(listed.some((segment) => segment.heardAt < killedAt)).toBe(true);
      expect(listed.filter((segment) => segment.discontinuity).length).toBeLessThanOrEqual(1);
      expect(new Set(listed.map((segment) => segment.timeline)).size).toBe(1);
      listed.slice(1).forEach((segment, i) => {
        const end = listed[i].firstFrame + listed[i].frameCount;
        expect(segment.sequence).toBe(listed[i].sequence + 1);
        if (segment.discontinuity) expect(segment.firstFrame).toBeGreaterThan(end);
        else expect(segment.firstFrame).toBe(end);
      });
      const joins = listed.filter((segment) => segment.discontinuity).length;
      process.stdout.write(`leader-kill: HLS playlist ${listed[0].sequence}-${listed.at(-1)!.sequence} across the kill, ${joins} discontinuity\n`);

      // The running order: every started slot started once and in order, none planned before it was skipped.
      await expectRunningOrder(station.database.url!);

      // The restarted worker got the killed one's job and completed it once: one registry record.
      await restarted;
      const done = await until('the restarted worker finishes the generation', read, (g) => g.status === 'complete' || g.status === 'failed', 120_000);
      process.stdout.write(`worker-kill: the generation completed ${((Date.now() - workerKilledAt) / 1000).toFixed(1)} s after its worker was killed\n`);
      expect(done.status).toBe('complete');
      expect(done.station_track_id).not.toBeNull();
      const records = await withDb(station.database.url!, (db) => db.query('select station_track_id from registry_tracks where generation_id = $1', [id]));
      expect(records.rows).toEqual([{ station_track_id: done.station_track_id }]);

      expect(next[0]!.card).toEqual(next[1]!.card);
      expect(cardSkewMs).toBeLessThan(1000);
      expect(gapMs).toBeLessThan(1000);
      expect(Math.abs(lateMs)).toBeLessThan(1000);
    },
  );
});

async function withDb<T>(url: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}
