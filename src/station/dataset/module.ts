/**
 * Module B assembled from the station's infrastructure: modules.ts calls this once and registers `routes`.
 * The snapshot list shows the runs that used each snapshot, asked of module C (training) through the
 * `trainingRuns` port it serves; module C reads snapshot items with loadSnapshotDataset (snapshot-dataset.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { DatasetCatalogReads } from './catalog-reads.js';
import { DatasetRepository } from './repository.js';
import type { TrainingCatalog } from './training-data.js';
import { datasetRoutes } from './routes.js';
import { DatasetService, type MasterBitrates, type TrainingRunsLookup } from './service.js';
import { DatasetValidator } from './validation.js';

export type DatasetModule = ReturnType<typeof buildDatasetModule>;

export interface DatasetModuleDeps {
  db: Db;
  /** The catalog's read port: the lyrics a snapshot freezes, as the training loader reads them. */
  catalog: TrainingCatalog;
  /** The catalog's read port for this module (its `datasetReads`): the rows the eligibility and validation judge. */
  catalogRows: DatasetCatalogReads;
  blobs: BlobStore;
  clock: Clock;
  /** Module C's jobs per snapshot (its `snapshotRuns` port). */
  trainingRuns: TrainingRunsLookup;
  /** The platform uploads' masters' bitrates (its `masterBitrates` port), for the quality gate. */
  masterBitrates: MasterBitrates;
}

export function buildDatasetModule({ db, catalog, catalogRows, blobs, clock, trainingRuns, masterBitrates }: DatasetModuleDeps) {
  const repo = new DatasetRepository(db, catalog, catalogRows);
  const service = new DatasetService(repo, new DatasetValidator({ repo, blobs }), clock, trainingRuns, masterBitrates);
  return {
    repo,
    service,
    /**
     * Read port for the platform's artist profiles: whether the training dataset takes a platform artist's
     * masters, by the artist's explicit status (included unless an admin excluded it).
     */
    artistStatus: {
      datasetStatus: async (artistId: string): Promise<'included' | 'excluded'> =>
        (await repo.explicitStatus(artistId)) === 'excluded' ? 'excluded' : 'included',
    },
    routes: async (app: FastifyInstance) => {
      await app.register(datasetRoutes(service));
    },
  };
}
