/**
 * Training throughput per model type on the demo catalog's data, through the engine exactly as a training
 * job runs it (LocalEngine, one worker thread = one core, checkpoint every epoch handed back to the caller):
 *   audio, style_embedding  tracks per second (training items x epochs / wall seconds)
 *   lyrics                  tokens per second (training-split tokens x epochs / wall seconds)
 * Each figure is reported over all epochs and over epochs 2..N (steady state: worker start, TF backend
 * and dataset parsing excluded).
 *
 *   npx tsx bench/training-throughput.ts [--masters 12] [--track-sec 4] [--audio-epochs 30] [--style-epochs 40] [--lyrics-epochs 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { renderDemoMasters } from '../src/demo/seed-audio.js';
import { seedDemoCatalog } from '../src/demo/seed-catalog.js';
import type { TrainableModel, TrainingHyperparams } from '../src/engine/engine.js';
import { LocalEngine } from '../src/engine/local-engine.js';
import { splitCorpus } from '../src/engine/lyrics/corpus.js';
import { documentTokens } from '../src/engine/lyrics/tokenizer.js';
import { FileBlobStore } from '../src/infra/blobs/blob-store.js';
import { openDatabase } from '../src/infra/db/client.js';
import { loadAudioItems, loadLyricsDocuments, publishDataset } from '../src/station/dataset/training-data.js';
import { CatalogTrackReads } from '../src/platform/catalog/track-reads.js';
import { BlobArtifactSource } from '../src/station/models/blob-artifact-source.js';
import { DEFAULT_HYPERPARAMS } from '../src/station/models/default-hyperparams.js';

const { values: args } = parseArgs({
  options: {
    masters: { type: 'string', default: '12' },
    'track-sec': { type: 'string', default: '4' },
    'audio-epochs': { type: 'string', default: '30' },
    'style-epochs': { type: 'string', default: '40' },
    'lyrics-epochs': { type: 'string', default: '3' },
  },
});

const dir = mkdtempSync(join(tmpdir(), 'bench-training-'));
const database = await openDatabase({ url: null, dataDir: null });
const blobs = new FileBlobStore(join(dir, 'blobs'));
const engine = new LocalEngine({ artifacts: new BlobArtifactSource(blobs), poolSize: 1 });

try {
  await database.migrate();
  await seedDemoCatalog(database.db);
  let rendered = 0;
  const renderStarted = performance.now();
  await renderDemoMasters(
    { db: database.db, blobs, engine },
    Number(args['track-sec']),
    () => rendered >= Number(args.masters),
    () => (rendered += 1),
  );
  console.log(`rendered ${rendered} demo masters (${args['track-sec']} s each) in ${((performance.now() - renderStarted) / 1000).toFixed(1)} s\n`);

  const catalog = new CatalogTrackReads(database.db);
  const audioItems = await loadAudioItems(catalog);
  const lyricsDocs = await loadLyricsDocuments(catalog);
  // The neural LM trains on each language's training split; count what it reads per epoch.
  const lyricsTokens = splitCorpus(lyricsDocs).reduce((sum, c) => sum + c.train.reduce((n, d) => n + documentTokens(d, 2).length - 2, 0), 0);

  const rows: string[][] = [];
  for (const type of ['audio', 'style_embedding', 'lyrics'] as TrainableModel[]) {
    const items = type === 'lyrics' ? lyricsDocs : audioItems;
    const dataset = await publishDataset(blobs, type, items);
    const epochs = Number(args[type === 'audio' ? 'audio-epochs' : type === 'lyrics' ? 'lyrics-epochs' : 'style-epochs']);
    const hyperparams: TrainingHyperparams = { ...DEFAULT_HYPERPARAMS[type], epochs };
    const unitsPerEpoch = type === 'lyrics' ? lyricsTokens : items.length;
    const epochEnds: number[] = [];
    let checkpointBytes = 0;
    const started = performance.now();
    const result = await engine.train(
      { modelType: type, dataset: dataset.ref, hyperparams, base: null, resumeFrom: null, seed: 1 },
      {
        onEpoch: () => void epochEnds.push(performance.now()),
        onCheckpoint: (checkpoint) => void (checkpointBytes = JSON.stringify(checkpoint).length),
      },
    );
    const total = (performance.now() - started) / 1000;
    const steady = epochEnds.length > 1 ? (epochEnds.at(-1)! - epochEnds[0]) / 1000 : total;
    const steadyEpochs = Math.max(1, epochEnds.length - 1);
    const unit = type === 'lyrics' ? 'tokens/s' : 'tracks/s';
    rows.push([
      type,
      `${items.length} ${type === 'lyrics' ? `songs (${lyricsTokens} train tokens)` : 'tracks'}`,
      String(epochEnds.length),
      total.toFixed(2),
      `${Math.round((unitsPerEpoch * epochEnds.length) / total).toLocaleString('en')} ${unit}`,
      `${Math.round((unitsPerEpoch * steadyEpochs) / steady).toLocaleString('en')} ${unit}`,
      `${((steady / steadyEpochs) * 1000).toFixed(1)} ms`,
      `${Math.round(checkpointBytes / 1024)} KiB`,
      String(result.metrics.finalLoss ?? '').slice(0, 6),
    ]);
  }
  const header = ['model', 'data', 'epochs', 'wall s', 'throughput (all)', 'throughput (epochs 2..N)', 'per epoch', 'checkpoint', 'final loss'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
} finally {
  await engine.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
