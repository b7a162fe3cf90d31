/**
 * Step 3 of the demo seed: the first model of each type, trained on the seeded catalog (platform-owned
 * audio features, platform songwriters' lyrics) and deployed, so the first AI track is possible at once.
 * Resumable: a type that already has a production model is skipped, unless `retrain` is set and the model
 * was trained on fewer items than are ready now (the seed trains on what is ready, then again as more arrives;
 * each retrained version is deployed too).
 */
import type { Engine, TrainableModel, TrainingHyperparams } from '../engine/engine.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import type { Db } from '../infra/db/client.js';
import { DEFAULT_HYPERPARAMS } from '../station/models/default-hyperparams.js';
import type { ModelStore } from '../station/models/model-store.js';
import type { ModelsRepository } from '../station/models/models.repository.js';
import { loadAudioItems, loadLyricsDocuments, publishDataset } from '../station/dataset/training-data.js';
import { CatalogTrackReads } from '../platform/catalog/track-reads.js';

export async function trainDemoModels(
  deps: { db: Db; blobs: BlobStore; engine: Engine; models: ModelStore; modelsRepo: ModelsRepository },
  types: TrainableModel[],
  log: (message: string, detail?: Record<string, unknown>) => void,
  shouldStop: () => boolean = () => false,
  hyperparams: Partial<Record<TrainableModel, TrainingHyperparams>> = {},
  options: { retrain?: boolean } = {},
): Promise<void> {
  const catalog = new CatalogTrackReads(deps.db);
  for (const type of types) {
    if (shouldStop()) return;
    const current = await deps.models.production(type);
    if (current && !options.retrain) continue;
    const items = type === 'lyrics' ? await loadLyricsDocuments(catalog) : await loadAudioItems(catalog);
    if (items.length === 0) continue;
    const dataset = await publishDataset(deps.blobs, type, items);
    if (current?.datasetHash === dataset.datasetHash) continue;
    const started = Date.now();
    const result = await deps.engine.train(
      { modelType: type, dataset: dataset.ref, hyperparams: hyperparams[type] ?? DEFAULT_HYPERPARAMS[type], base: null, resumeFrom: null, seed: 1 },
      { shouldStop },
    );
    if (!result.artifact) continue;
    const saved = await deps.models.save({
      type,
      artifact: result.artifact,
      datasetHash: dataset.datasetHash,
      metrics: result.metrics,
      lineage: { source: 'demo-seed', snapshot_id: null, job_id: null, base_model_id: null, dataset_hash: dataset.datasetHash, items: items.length },
    });
    await deps.modelsRepo.deploy(saved.id);
    log(`demo ${type} model ${current ? 're' : ''}trained and deployed`, {
      version: saved.version,
      seconds: Math.round((Date.now() - started) / 1000),
      items: items.length,
    });
  }
}
