/** Module I assembled on top of module G's registry: modules.ts calls this once and registers `routes`. */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { RegistryModule } from '../registry/module.js';
import { DatasetProvenance, type DatasetOwnership } from './dataset-provenance.js';
import { transparencyRoutes } from './routes.js';
import { TransparencyService, type TransparencyDeps } from './transparency.service.js';

export interface TransparencyModuleDeps {
  blobs: BlobStore;
  /** The catalog's read port: which tracks, songwriters and artists a model's dataset names are the platform's own. */
  catalog: DatasetOwnership;
  registry: Pick<RegistryModule, 'repo' | 'lineage' | 'audit' | 'reviewsRepo'>;
  /** Module F's read port: a track's lyrics in the order they are sung. */
  lyricsOf: TransparencyDeps['lyricsOf'];
  clock: Clock;
  publicBaseUrl: string;
}

export function buildTransparencyModule({ blobs, catalog, registry, lyricsOf, clock, publicBaseUrl }: TransparencyModuleDeps) {
  const transparency = new TransparencyService({
    registry: registry.repo,
    models: registry.lineage,
    provenance: new DatasetProvenance(catalog, blobs),
    chain: registry.audit,
    reviews: registry.reviewsRepo,
    lyricsOf,
    clock,
    publicBaseUrl,
  });
  return {
    transparency,
    routes: async (app: FastifyInstance) => {
      await app.register(transparencyRoutes(transparency, publicBaseUrl));
    },
  };
}
