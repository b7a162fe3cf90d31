/** Module B (dataset manager) endpoints; every one needs station:train. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import type { DatasetService } from './service.js';
import {
  ArtistIdParams,
  ArtistStatusBody,
  DatasetArtistQuery,
  DatasetArtistView,
  DatasetConfigPatchBody,
  DatasetConfigView,
  DatasetStatsView,
  SnapshotBody,
  SnapshotDetailView,
  SnapshotView,
  ValidateBody,
  ValidationReport,
} from './schemas.js';
import { Type } from '@sinclair/typebox';

const TAGS = ['station-dataset'];
const SCOPE = { scope: 'station:train' } as const;

const callerOf = (request: FastifyRequest) => request.principal?.userId ?? request.principal?.apiKeyId ?? null;

export function datasetRoutes(dataset: DatasetService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/station/v1/dataset/config',
      { config: SCOPE, schema: { tags: TAGS, summary: 'The dataset configuration', response: { 200: DatasetConfigView } } },
      async () => dataset.getConfig(),
    );

    app.patch(
      '/station/v1/dataset/config',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Partial update of the dataset configuration; applies to the next training run only (no automatic retraining)',
          description:
            'training_sources.audio and .lyrics are constants: any other value answers 400 STATION_DATASET_VIOLATION. So does a whitelist ' +
            'naming an artist that is not platform-owned or does not exist. Nothing changes on any 400.',
          body: DatasetConfigPatchBody,
          response: { 200: DatasetConfigView },
        },
      },
      async (request) => dataset.updateConfig(request.body, callerOf(request)),
    );

    app.get(
      '/station/v1/dataset/stats',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Statistics of the eligible set: masters, lyric files, hours of audio, era breakdown, exclusions by reason',
          response: { 200: DatasetStatsView },
        },
      },
      async () => dataset.stats(),
    );

    app.get(
      '/station/v1/dataset/artists',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Every artist with its dataset status, track and lyric counts and last status change; filter status=included|excluded',
          description:
            'An artist that is not platform-owned is always excluded ("not platform-owned"). Otherwise an explicit per-artist status ' +
            '(PATCH) decides, then the artist filter. Ordered by name.',
          querystring: DatasetArtistQuery,
          response: { 200: Paginated(DatasetArtistView, 'DatasetArtistPage') },
        },
      },
      async (request) => dataset.listArtists({ ...pageOf(request.query), status: request.query.status }),
    );

    app.patch(
      '/station/v1/dataset/artists/:artist_id',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: "Sets an artist's dataset status with a reason (kept in the audit trail); overrides the artist filter",
          description: 'Including an artist that is not platform-owned answers 400 STATION_DATASET_VIOLATION; an unknown artist 404 STATION_NOT_FOUND.',
          params: ArtistIdParams,
          body: ArtistStatusBody,
          response: { 200: DatasetArtistView },
        },
      },
      async (request) => dataset.setArtistStatus(request.params.artist_id, request.body, callerOf(request)),
    );

    app.post(
      '/station/v1/dataset/snapshot',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Freezes the configuration and the exact eligible items (sorted ids) under a name, with their sha256 dataset_hash',
          description:
            'dataset_hash = sha256 of the canonical JSON (sorted keys, no whitespace) of {config, audio_track_ids, lyric_ids, items: ' +
            '{audio: [{id, features_sha256}], lyrics: [{id, content_sha256}]}}: the same data gives the same hash on any machine.',
          body: SnapshotBody,
          response: { 201: SnapshotView },
        },
      },
      async (request, reply) => reply.status(201).send(await dataset.createSnapshot(request.body, callerOf(request))),
    );

    app.get(
      '/station/v1/dataset/snapshots',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Snapshots, newest first, with hash, timestamp, item counts and the training runs that used each',
          querystring: PageQuery,
          response: { 200: Paginated(SnapshotView, 'DatasetSnapshotPage') },
        },
      },
      async (request) => dataset.listSnapshots(pageOf(request.query)),
    );

    app.get(
      '/station/v1/dataset/snapshots/:snapshot_id',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'One snapshot with its frozen item ids',
          params: IdParams('snapshot_id'),
          response: { 200: SnapshotDetailView },
        },
      },
      async (request) => dataset.getSnapshot(request.params.snapshot_id),
    );

    app.post(
      '/station/v1/dataset/validate',
      {
        config: SCOPE,
        schema: {
          tags: TAGS,
          summary: 'Validates the eligible set (or a snapshot): masters exist and decode, lyrics carry platform songwriter credits, no third-party content',
          description:
            'Problems: master_missing, master_undecodable, features_missing, track_missing, lyric_missing, lyric_without_platform_credit, ' +
            'lyric_credit_not_on_track, non_platform_artist, near_duplicate_of_non_platform_audio. valid is true when there are none. ' +
            'The body may be empty.',
          body: Type.Union([ValidateBody, Type.Null()]),
          response: { 200: ValidationReport },
        },
      },
      async (request) => dataset.validate(request.body ?? {}),
    );
  };
}
