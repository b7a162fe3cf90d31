/**
 * Raw internal error text never reaches a client or a webhook (issue 8, item 7), on training jobs: an engine
 * that fails with an exception whose message holds an address, a path and a token leaves a job whose public
 * error, station event and notify_webhook payload carry only the coarse, fixed message. Also: the job fields
 * as /openapi.json documents them (gpu_utilization_pct an integer, cpu_utilization_pct its own field, no
 * cancelled status).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { datasetSnapshots } from '../../src/infra/db/schema/index.js';
import { sha256Tagged } from '../../src/lib/canonical-json.js';
import { loadLyricRows } from '../../src/station/dataset/training-data.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { authHeaders, buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';

type Json = Record<string, any>;

/** What an internal failure's own text may hold: a private address, a port, a file path, a credential. */
const SECRET_TEXT = 'connect ECONNREFUSED 10.0.0.5:5432 reading /var/lib/station/keys/jwt.key (password=hunter2)';
// The port with its colon: a bare "5432" also turns up by chance inside a random uuid of the answer.
const LEAKS = /ECONNREFUSED|10\.0\.0\.5|:5432|\/var\/lib|jwt\.key|hunter2/;

describe('training job failures in public', () => {
  let station: TestStation;
  let headers: Record<string, string>;
  let snapshotId: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: { url: string; body: string }[] = [];
  const events: Json[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ url: request.url ?? '', body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // A receiver's token in the query, as receivers often take it.
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/training?token=receiver-secret-token`;

    station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    const db = station.database.db;
    await seedDemoCatalog(db);
    const lyricIds = (await loadLyricRows(new CatalogTrackReads(db))).map((row) => row.lyricId).sort();
    const [snapshot] = await db
      .insert(datasetSnapshots)
      .values({ name: 'failures', config: { test: true }, audioTrackIds: [], lyricIds, datasetHash: sha256Tagged(`failures:${lyricIds.join()}`) })
      .returning();
    snapshotId = snapshot.id;
    headers = authHeaders(await staffLogin(station));
    await station.bus.subscribe(STATION_EVENTS_CHANNEL, (m) => events.push(m as Json));
  }, 120_000);

  afterAll(async () => {
    await station?.destroy();
    receiver?.close();
  });

  it('stores and sends only the coarse message when the engine fails with internal text', async () => {
    // The one thing not real here: the engine's training fails as a bug or a lost dependency would.
    station.engine.train = async () => {
      throw new Error(SECRET_TEXT);
    };
    const created = await station.http.inject({
      method: 'POST',
      url: '/station/v1/training/jobs',
      headers,
      payload: { model_type: 'lyrics', dataset_snapshot_id: snapshotId, hyperparams: { epochs: 1 }, notify_webhook: receiverUrl },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().job_id as string;

    const read = async () => (await station.http.inject({ url: `/station/v1/training/jobs/${id}`, headers })).json();
    const failed = await pollUntil(`job ${id} fails`, read, (j) => j.status === 'failed');
    expect(failed.error_stage).toBeTruthy();
    expect(failed.error_message).toBe(`Training failed in stage ${failed.error_stage} (an internal error; it was logged on the server with the job id)`);
    expect(JSON.stringify(failed)).not.toMatch(LEAKS);
    const listed = (await station.http.inject({ url: '/station/v1/training/jobs?status=failed', headers })).json();
    expect(JSON.stringify(listed)).not.toMatch(LEAKS);

    // The station event (what registered webhooks receive) and the job's own notify_webhook carry the same words.
    const event = await pollUntil(
      'station.training.job_failed is published',
      () => events.find((e) => e.event === 'station.training.job_failed' && e.data.job_id === id),
      (e) => e !== undefined,
    );
    expect(event?.data).toEqual({ job_id: id, error_stage: failed.error_stage, message: failed.error_message });
    const hook = await pollUntil(
      'notify_webhook is called',
      () => received.find((r) => r.body.includes(id)),
      (r) => r !== undefined,
    );
    expect(hook!.url).toBe('/hooks/training?token=receiver-secret-token');
    expect(JSON.parse(hook!.body).data).toEqual({ job_id: id, error_stage: failed.error_stage, message: failed.error_message });
    expect(hook!.body).not.toMatch(LEAKS);
  }, 60_000);

  it('documents the job fields in /openapi.json: gpu_utilization_pct an integer, cpu_utilization_pct its own field, no cancelled status', async () => {
    const spec = (await station.http.inject({ url: '/openapi.json' })).json();
    const job = spec.paths['/station/v1/training/jobs/{job_id}'].get.responses['200'].content['application/json'].schema;
    expect(job.properties.gpu_utilization_pct).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(job.required).toContain('gpu_utilization_pct');
    const cpu = job.properties.cpu_utilization_pct;
    expect(cpu.anyOf.map((s: Json) => s.type)).toEqual(['integer', 'null']);
    expect(job.required).toContain('cpu_utilization_pct');
    expect(job.properties.status.enum).toEqual(['queued', 'running', 'paused', 'completed', 'failed']);
    const listQuery = spec.paths['/station/v1/training/jobs'].get.parameters.find((p: Json) => p.name === 'status');
    expect(listQuery.schema.enum).not.toContain('cancelled');
    const cancel = spec.paths['/station/v1/training/jobs/{job_id}'].delete;
    expect(cancel.responses['200'].content['application/json'].schema.properties.deleted.description).toMatch(/404/);
  });
});
