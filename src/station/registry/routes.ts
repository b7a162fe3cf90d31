/** Module G endpoints: the AI track registry, its sessions, playback counting and the audit trail. */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PageQuery, Paginated } from '../../http/schemas.js';
import type { ChainAuditService, ExportFormat } from './chain-audit.js';
import { generatedRange } from './date-range.js';
import type { RegistryAdminService } from './registry-admin.service.js';
import { RegistryService } from './registry.service.js';
import {
  AuditExportQuery,
  ChainHead,
  ChainVerification,
  PlaybackBody,
  PlaybackResult,
  RegisterTrackBody,
  RegisterTrackResult,
  RegistryDetail,
  RegistryListQuery,
  RegistryPatchBody,
  RegistryRecord,
  SessionView,
  StationTrackIdParams,
} from './schemas.js';
import type { TrackRegistrationService } from './track-registration.js';

export const REGISTRY_TAG = { name: 'station-registry', description: 'Module G: append-only, hash-chained registry of AI tracks and its audit trail' };
const TAGS = [REGISTRY_TAG.name];

const EXPORT_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

export interface RegistryRouteDeps {
  admin: RegistryAdminService;
  registration: TrackRegistrationService;
  audit: ChainAuditService;
}

export function registryRoutes({ admin, registration, audit }: RegistryRouteDeps) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/station/v1/registry/tracks',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary: 'Registers a finished generation (idempotent per generation_id: 201 when created, 200 with the existing record after)',
          description:
            'Module E registers every track itself on completion, so for its generations this returns the existing record. ' +
            'A generation still running answers 409; one without stored audio answers 409.',
          body: RegisterTrackBody,
          response: { 200: RegisterTrackResult, 201: RegisterTrackResult },
        },
      },
      async (request, reply) => {
        const { row, created } = await registration.register(request.body);
        return reply
          .status(created ? 201 : 200)
          .send({ station_track_id: row.stationTrackId, created, record: RegistryService.toRecord(row) });
      },
    );

    app.get(
      '/station/v1/registry/tracks',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Registry records, newest first; filters on session, generated_at range, model version, reuse and review flags',
          querystring: RegistryListQuery,
          response: { 200: Paginated(RegistryRecord, 'RegistryRecordPage') },
        },
      },
      async (request) => admin.list(request.query),
    );

    app.get(
      '/station/v1/registry/tracks/:station_track_id',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Full record with attribution, playback count, safety score, model lineage and safety flags',
          params: StationTrackIdParams,
          response: { 200: RegistryDetail },
        },
      },
      async (request) => admin.detail(request.params.station_track_id),
    );

    app.patch(
      '/station/v1/registry/tracks/:station_track_id',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Sets reuse_eligible and/or flag_for_review, nothing else; flag_for_review true queues the track for safety review',
          params: StationTrackIdParams,
          body: RegistryPatchBody,
          response: { 200: RegistryRecord },
        },
      },
      async (request) =>
        admin.update(request.params.station_track_id, request.body, {
          userId: request.principal?.userId ?? null,
          credentialId: request.principal?.credentialId ?? null,
        }),
    );

    app.post(
      '/station/v1/registry/tracks/:station_track_id/playback',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary: 'Counts one play (the scheduler calls it on each play); first_played_at is set on the first',
          params: StationTrackIdParams,
          body: PlaybackBody,
          response: { 200: PlaybackResult },
        },
      },
      async (request) => admin.playback(request.params.station_track_id, request.body ?? null),
    );

    app.get(
      '/station/v1/registry/sessions',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Radio sessions with tracks generated and played, plays, listener hours and generation success rate; latest activity first',
          querystring: PageQuery,
          response: { 200: Paginated(SessionView, 'RegistrySessionPage') },
        },
      },
      async (request) => admin.sessions(request.query),
    );

    app.get(
      '/station/v1/registry/audit-export',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'The full audit log, streamed in chain order: format=json (array, default), csv (RFC 4180, header row) or ndjson',
          description:
            'Every stored field of every record in the generated_at range, including seq, prev_hash and record_hash so each hash can be ' +
            'recomputed. X-Registry-Head-Seq / X-Registry-Head-Hash name the chain head the export stops at.',
          querystring: AuditExportQuery,
        },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'json';
        const range = generatedRange(request.query);
        const head = await audit.head();
        const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '').replace('T', '-');
        const extension = format === 'ndjson' ? 'ndjson' : format;
        reply
          .header('content-type', EXPORT_TYPES[format])
          .header('content-disposition', `attachment; filename="station-registry-audit-${stamp}.${extension}"`)
          .header('cache-control', 'no-store')
          .header('x-registry-head-seq', String(head.seq ?? 0))
          .header('x-registry-head-hash', head.record_hash);
        return reply.send(Readable.from(audit.export(format, range, head.seq ?? 0), { objectMode: false }));
      },
    );

    app.get(
      '/station/v1/registry/chain/head',
      {
        config: { scope: 'station:admin' },
        schema: { tags: TAGS, summary: 'The hash chain head: last seq, its record_hash, number of records', response: { 200: ChainHead } },
      },
      async () => audit.head(),
    );

    app.get(
      '/station/v1/registry/chain/verify',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Recomputes every record_hash and checks every prev_hash link; names the first record that fails',
          response: { 200: ChainVerification },
        },
      },
      async () => audit.verify(),
    );
  };
}
