/**
 * Module B assembled from the station's infrastructure: modules.ts calls this once and registers `routes`.
 * The snapshot list shows the runs that used each snapshot; module C (training) reads snapshot items with
 * loadSnapshotDataset (snapshot-dataset.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { DatasetRepository } from './repository.js';
import { datasetRoutes } from './routes.js';
import { DatasetService } from './service.js';
import { DatasetValidator } from './validation.js';

export type DatasetModule = ReturnType<typeof buildDatasetModule>;

export function buildDatasetModule({ db, blobs, clock }: { db: Db; blobs: BlobStore; clock: Clock }) {
  const repo = new DatasetRepository(db);
  // The snapshot list reads module C's training_jobs table directly (a read port module C could serve instead).
  const service = new DatasetService(repo, new DatasetValidator({ repo, blobs }), clock, { runsForSnapshots: (ids) => repo.trainingRuns(ids) });
  return {
    repo,
    service,
    routes: async (app: FastifyInstance) => {
      await app.register(datasetRoutes(service));
    },
  };
}
