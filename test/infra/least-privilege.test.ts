/**
 * DATABASE_MIGRATION_URL on PostgreSQL: an owner role runs the migrations and grants the app's role least
 * privilege, so the registry is append-only even against the app's own connection: no DROP/ALTER of the
 * table or its trigger, and with the trigger out of the way still no DELETE, TRUNCATE or UPDATE of a recorded
 * column. Two throwaway login roles and a database are made per run (trust auth on the local server).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db/client.js';
import { LeastPrivilegeError } from '../../src/infra/db/privileges.js';
import { authHeaders, buildTestStation, verifiedListener, staffLogin, type TestStation } from '../helpers/station.js';

const SERVER = process.env.DATABASE_URL;

async function asRole(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with, or null when it succeeds. */
async function failureCode(client: pg.Client, statement: string): Promise<string | null> {
  try {
    await client.query(statement);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'unknown';
  }
}

// PGlite is one embedded single-user database: roles, logins and grants need a PostgreSQL server (CI sets DATABASE_URL).
describe.skipIf(!SERVER)('least-privilege database roles (PostgreSQL only; skipped on PGlite, which has no separate roles)', () => {
  const suffix = randomBytes(5).toString('hex');
  const owner = `station_owner_${suffix}`;
  const app = `station_app_${suffix}`;
  const database = `station_lp_${suffix}`;
  const urlAs = (role: string) => {
    const url = new URL(SERVER!);
    url.username = role;
    url.password = '';
    url.pathname = `/${database}`;
    return url.toString();
  };
  const ownerUrl = () => urlAs(owner);
  const appUrl = () => urlAs(app);
  const superuser = (statement: string) => asRole(SERVER!, async (client) => void (await client.query(statement)));
  let station: TestStation;
  let stationTrackId: string;

  beforeAll(async () => {
    await superuser(`CREATE ROLE ${owner} LOGIN`);
    await superuser(`CREATE ROLE ${app} LOGIN`);
    await superuser(`CREATE DATABASE ${database} OWNER ${owner}`);
    station = await buildTestStation(
      { DATABASE_URL: appUrl(), DATABASE_MIGRATION_URL: ownerUrl() },
      {
        database: {
          url: appUrl(),
          dataDir: null,
          open: () => openDatabase({ url: appUrl(), migrationUrl: ownerUrl(), dataDir: null, poolSize: 4 }),
          drop: async () => undefined,
        },
      },
    );
  }, 120_000);

  afterAll(async () => {
    await station?.destroy();
    await superuser(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await superuser(`DROP ROLE IF EXISTS ${app}`);
    await superuser(`DROP ROLE IF EXISTS ${owner}`);
  });

  it('migrates as the owner and runs the product as the app role', async () => {
    await asRole(appUrl(), async (client) => {
      const { rows } = await client.query(`select current_user as role, (select tableowner from pg_tables where tablename = 'registry_tracks') as owner`);
      expect(rows[0]).toEqual({ role: app, owner });
    });
    const admin = authHeaders(await staffLogin(station));
    const listener = authHeaders(await verifiedListener(station));
    const record = await station.station.registry.register({
      stationTrackId: `stn_lp_${suffix}`,
      generationId: '00000000-0000-4000-8000-000000000001',
      sessionId: 'lp',
      radioOnly: true,
      modelVersion: 'audio-lp',
      lyricsModelVersion: null,
      trainingDatasetHash: `sha256:${'a'.repeat(64)}`,
      contextSnapshot: { genre: 'ambient' },
      title: 'Least Privilege',
      genre: 'ambient',
      mood: ['calm'],
      bpm: 90,
      durationSec: 120,
      audioBlobKey: 'ai/lp.mp3',
      audioSha256: 'b'.repeat(64),
      waveformBlobKey: null,
      coverBlobKey: null,
      lyricId: null,
      influencedBy: [],
      safetyScore: 0.95,
      generatedAt: new Date(),
    });
    stationTrackId = record.stationTrackId;
    const id = record.stationTrackId;
    // The track is on air and the listener holds a stream ticket: their report counts (issue 16, item 7).
    await station.station.registryModule.plays.recordPlay({
      origin: 'ai_generated',
      stationTrackId: id,
      sessionId: null,
      startedAt: new Date(),
      durationSec: 120,
      listenerCount: 1,
    });
    expect((await station.http.inject({ url: '/station/v1/radio/stream-info', headers: listener })).statusCode).toBe(200);
    // the permitted updates: the admin's two fields, the play counter, listener reports (which lock the row)
    const patch = await station.http.inject({ method: 'PATCH', url: `/station/v1/registry/tracks/${id}`, headers: admin, payload: { reuse_eligible: true } });
    expect(patch.statusCode, patch.body).toBe(200);
    await station.station.registry.countPlayback(id);
    const feedback = await station.http.inject({
      method: 'POST',
      url: '/station/v1/radio/feedback',
      headers: listener,
      payload: { station_track_id: id, rating: 'thumbs_down', flag_inappropriate: true },
    });
    expect(feedback.statusCode, feedback.body).toBe(201);
    const flagged = await station.http.inject({
      method: 'PATCH',
      url: `/station/v1/registry/tracks/${id}`,
      headers: admin,
      payload: { flag_for_review: true },
    });
    expect(flagged.json()).toMatchObject({ reuse_eligible: true, flag_for_review: true, withheld: true, playback_count: 1, listener_reports: 1 });
    expect((await station.http.inject({ url: '/station/v1/registry/chain/verify', headers: admin })).json()).toMatchObject({ valid: true, checked: 1 });
    const exported = JSON.parse((await station.http.inject({ url: '/station/v1/registry/audit-export', headers: admin })).body);
    expect(exported.records).toHaveLength(1);
  });

  it('refuses the app role any change of the table or its trigger', async () => {
    await asRole(appUrl(), async (client) => {
      for (const statement of [
        'DROP TRIGGER registry_tracks_append_only ON registry_tracks',
        'ALTER TABLE registry_tracks DISABLE TRIGGER registry_tracks_append_only',
        'ALTER TABLE registry_tracks DISABLE TRIGGER ALL',
        'ALTER TABLE registry_tracks ADD COLUMN forged text',
        'ALTER TABLE registry_tracks OWNER TO CURRENT_USER',
        'DROP FUNCTION registry_tracks_guard() CASCADE',
        'DROP TABLE registry_tracks CASCADE',
        'CREATE TABLE public.shadow (id int)',
      ]) {
        expect(await failureCode(client, statement), statement).toBe('42501');
      }
    });
  });

  it('refuses DELETE, TRUNCATE and UPDATE of recorded columns by privilege, even with the trigger disabled', async () => {
    await asRole(ownerUrl(), async (client) => void (await client.query('ALTER TABLE registry_tracks DISABLE TRIGGER USER')));
    try {
      await asRole(appUrl(), async (client) => {
        const where = `WHERE station_track_id = '${stationTrackId}'`;
        for (const statement of [
          `UPDATE registry_tracks SET title = 'Forged' ${where}`,
          `UPDATE registry_tracks SET record_hash = 'sha256:${'f'.repeat(64)}' ${where}`,
          `UPDATE registry_tracks SET prev_hash = 'x', reuse_eligible = false ${where}`,
          `DELETE FROM registry_tracks ${where}`,
          'TRUNCATE registry_tracks CASCADE',
        ]) {
          expect(await failureCode(client, statement), statement).toBe('42501');
        }
        // the four mutable columns stay writable, and reading and appending work
        expect(
          await failureCode(
            client,
            `UPDATE registry_tracks SET reuse_eligible = false, flag_for_review = false, playback_count = playback_count + 1, first_played_at = now() ${where}`,
          ),
        ).toBeNull();
        const { rows } = await client.query(`SELECT title, playback_count FROM registry_tracks ${where}`);
        expect(rows).toEqual([{ title: 'Least Privilege', playback_count: 2 }]);
      });
    } finally {
      await asRole(ownerUrl(), async (client) => void (await client.query('ALTER TABLE registry_tracks ENABLE TRIGGER USER')));
    }
  });

  it('refuses to start when DATABASE_URL could act as the owner', async () => {
    const same = await openDatabase({ url: ownerUrl(), migrationUrl: ownerUrl(), dataDir: null, poolSize: 1 });
    await expect(same.migrate()).rejects.toThrow(/same role/);
    await same.close();

    await superuser(`GRANT ${owner} TO ${app}`);
    try {
      const member = await openDatabase({ url: appUrl(), migrationUrl: ownerUrl(), dataDir: null, poolSize: 1 });
      const failure = await member.migrate().then(
        () => null,
        (error: Error) => error,
      );
      await member.close();
      expect(failure).toBeInstanceOf(LeastPrivilegeError);
      expect(failure!.message).toMatch(new RegExp(`"${app}" owns registry_tracks`));
    } finally {
      await superuser(`REVOKE ${owner} FROM ${app}`);
    }
    // extra grants the operator added by hand are taken back at the next start
    await asRole(ownerUrl(), async (client) => void (await client.query(`GRANT ALL ON registry_tracks TO ${app}`)));
    const again = await openDatabase({ url: appUrl(), migrationUrl: ownerUrl(), dataDir: null, poolSize: 1 });
    await again.migrate();
    await again.close();
    await asRole(appUrl(), async (client) => {
      expect(await failureCode(client, `DELETE FROM registry_tracks WHERE station_track_id = '${stationTrackId}'`)).toBe('42501');
    });
  });
});
