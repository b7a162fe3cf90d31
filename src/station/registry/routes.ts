/** Module G endpoints: the AI track registry, its sessions, playback counting and the audit trail. */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PageQuery, Paginated } from '../../http/schemas.js';
import { anchorOf, type ChainAuditService, type ExportFormat } from './chain-audit.js';
import { generatedRange } from './date-range.js';
import type { RegistryAdminService } from './registry-admin.service.js';
import {
  AuditExportQuery,
  ChainHead,
  ChainVerification,
  ChainVerifyQuery,
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
        return reply.status(created ? 201 : 200).send({ station_track_id: row.stationTrackId, created, record: await admin.recordView(row) });
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
          description: "A caller's repeated call for one track within the track's length (at least 30 s) counts once: it answers the count as it stands.",
          params: StationTrackIdParams,
          body: PlaybackBody,
          response: { 200: PlaybackResult },
        },
      },
      async (request) => admin.playback(request.params.station_track_id, request.body ?? null, request.principal!.userId ?? request.principal!.credentialId),
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
          summary: 'The full audit log, streamed in chain order: format=json (default), csv (RFC 4180, header row) or ndjson',
          description:
            'Every stored field of every record in the generated_at range, including seq, prev_hash and record_hash so each hash can be ' +
            'recomputed. The export is cut at the chain head read when it starts (records appended meanwhile are left out) and carries that ' +
            'head ({seq, record_hash, count, computed_at}) so that any copy can later be checked against the registry: ' +
            'json is an object {"chain_head": {...}, "records": [...]}; ndjson ends with a line {"chain_head": {...}} after the records; ' +
            "csv ends with a trailer row whose first cell is #chain_head, followed by the head's seq, record_hash, count and computed_at " +
            "(the other cells empty). Without a date range the last record's record_hash equals the head's. " +
            'The headers X-Registry-Head-Seq, X-Registry-Head-Hash and X-Registry-Head-Computed-At repeat it. ' +
            'In csv only, a cell starting with =, +, -, @, a tab or a carriage return gets a leading single quote so that spreadsheets do not ' +
            'run it as a formula; recompute hashes from json or ndjson, which are exact.',
          querystring: AuditExportQuery,
        },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'json';
        const { head, chunks } = await audit.export(format, generatedRange(request.query));
        const stamp = head.computed_at.slice(0, 19).replaceAll(':', '').replace('T', '-');
        reply
          .header('content-type', EXPORT_TYPES[format])
          .header('content-disposition', `attachment; filename="station-registry-audit-${stamp}.${format}"`)
          .header('cache-control', 'no-store')
          .header('x-registry-head-seq', String(head.seq ?? 0))
          .header('x-registry-head-hash', head.record_hash)
          .header('x-registry-head-computed-at', head.computed_at);
        return reply.send(Readable.from(chunks, { objectMode: false }));
      },
    );

    app.get(
      '/station/v1/registry/chain/head',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'The hash chain head: last seq, its record_hash, number of records, when read (also public in GET /station/v1/transparency/station)',
          response: { 200: ChainHead },
        },
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
          description:
            'With anchor_seq and anchor_hash (a chain head published earlier, e.g. kept from the transparency statement or an export), ' +
            'also checks that the record at that seq still has that hash: a chain rewritten and re-hashed from some record on passes the ' +
            'other checks but fails this one (reason anchor_mismatch).',
          querystring: ChainVerifyQuery,
          response: { 200: ChainVerification },
        },
      },
      async (request) => audit.verify(anchorOf(request.query)),
    );
  };
}
