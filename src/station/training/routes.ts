/** Module C endpoints: training jobs and model versions. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, Paginated } from '../../http/schemas.js';
import type { TrainingService } from './service.js';
import {
  CancelledJob,
  DeployResult,
  JobListQuery,
  ModelListQuery,
  ModelVersionView,
  TrainingJobDetails,
  TrainingJobRequest,
  TrainingJobView,
} from './schemas.js';

const JobId = IdParams('job_id');
const ModelId = IdParams('model_id');
const TAGS = ['station-training'];

export function trainingRoutes(training: TrainingService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const caller = (request: { principal: { userId: string | null; apiKeyId: string | null } | null }) =>
      request.principal?.userId ?? request.principal?.apiKeyId ?? null;

    app.post(
      '/station/v1/training/jobs',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary:
            'Starts a training job on a dataset snapshot; answers at once (202, status queued). 409 STATION_TRAINING_IN_PROGRESS while a job of that model type is queued, running or paused',
          body: TrainingJobRequest,
          response: { 202: TrainingJobView },
        },
      },
      async (request, reply) => reply.status(202).send(await training.create(request.body, caller(request))),
    );

    app.get(
      '/station/v1/training/jobs',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary: 'Training jobs, newest first; filter by model and status',
          querystring: JobListQuery,
          response: { 200: Paginated(TrainingJobView, 'TrainingJobList') },
        },
      },
      async (request) => training.list(request.query),
    );

    app.get(
      '/station/v1/training/jobs/:job_id',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary: 'Full job details: status fields, the loss curve and the dataset snapshot used',
          params: JobId,
          response: { 200: TrainingJobDetails },
        },
      },
      async (request) => training.get(request.params.job_id),
    );

    app.post(
      '/station/v1/training/jobs/:job_id/pause',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary: 'Pauses a running job at its next checkpoint (202 with pause_requested true; status becomes paused at the checkpoint). Other states: 409',
          params: JobId,
          response: { 202: TrainingJobView },
        },
      },
      async (request, reply) => reply.status(202).send(await training.pause(request.params.job_id)),
    );

    app.post(
      '/station/v1/training/jobs/:job_id/resume',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary: 'Resumes a paused job from its last checkpoint (queued, then running; the loss curve continues). Other states: 409',
          params: JobId,
          response: { 202: TrainingJobView },
        },
      },
      async (request, reply) => reply.status(202).send(await training.resume(request.params.job_id)),
    );

    app.delete(
      '/station/v1/training/jobs/:job_id',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary:
            "Cancels and deletes a job that is not completed, with its checkpoint: from this answer on GET answers 404 STATION_NOT_FOUND and the list leaves it out (a running job's worker stops at its next check). Completed: 409 STATION_CONFLICT",
          params: JobId,
          response: { 200: CancelledJob },
        },
      },
      async (request) => training.cancel(request.params.job_id),
    );

    app.get(
      '/station/v1/training/models',
      {
        config: { scope: 'station:train' },
        schema: {
          tags: TAGS,
          summary: 'Model versions, newest first, with deployment status (production, ready, retired), metrics and lineage',
          querystring: ModelListQuery,
          response: { 200: Paginated(ModelVersionView, 'ModelVersionList') },
        },
      },
      async (request) => training.listModels(request.query),
    );

    app.post(
      '/station/v1/training/models/:model_id/deploy',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Promotes a model version to production with a zero-downtime swap: running generations finish on the old version, new ones use this one',
          params: ModelId,
          response: { 200: DeployResult },
        },
      },
      async (request) => training.deploy(request.params.model_id),
    );
  };
}
