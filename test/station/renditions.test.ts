import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/engine/local-engine.js';
import { emptyAudioModel, serialiseAudioModel } from '../../src/engine/music/audio-model.js';
import { FileBlobStore } from '../../src/infra/blobs/blob-store.js';
import { BlobArtifactSource } from '../../src/station/models/blob-artifact-source.js';
import { Renditions } from '../../src/station/radio/renditions.js';
import { parseMp3 } from '../../src/station/radio/stream/mp3-frames.js';

describe('stream renditions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'renditions-'));
  const blobs = new FileBlobStore(dir);
  const engine = new LocalEngine({ artifacts: new BlobArtifactSource(blobs), poolSize: 1 });

  beforeAll(async () => {
    const model = Buffer.from(serialiseAudioModel(emptyAudioModel()));
    await blobs.put('models/untrained.json', model);
    const track = await engine.generateTrack({
      context: { genre: 'jazz', subgenre: '', mood: ['warm'], lifestyle: 'chill', tempo_range: [90, 90], key_preference: 'major', energy_level: 0.5 },
      seed: 4,
      maxDurationSec: 8,
      quality: '128kbps',
      audioModel: { version: 'untrained', sha256: createHash('sha256').update(model).digest('hex'), blobKey: 'models/untrained.json' },
      stationName: 'Test',
    });
    await blobs.put('catalog/master.mp3', track.mp3);
  }, 120_000);
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays a master at its own bitrate as it is', async () => {
    expect(await new Renditions(blobs, engine).keyFor('catalog/master.mp3', 128, '128kbps')).toBe('catalog/master.mp3');
  });

  it('re-encodes a master once at the stream bitrate and reuses the result', async () => {
    const renditions = new Renditions(blobs, engine);
    const [first, concurrent] = await Promise.all([
      renditions.keyFor('catalog/master.mp3', 128, '192kbps'),
      renditions.keyFor('catalog/master.mp3', 128, '192kbps'),
    ]);
    expect(first).toBe('catalog/master.192k.mp3');
    expect(concurrent).toBe(first);
    const parsed = parseMp3(await blobs.get(first));
    expect(new Set(parsed.frames.map((f) => f.bitrateKbps))).toEqual(new Set([192]));
    expect(Math.abs(parsed.durationMs / 1000 - 8)).toBeLessThan(0.5);
    const stored = (await blobs.stat(first))!.size;
    // A new instance finds the stored rendition instead of encoding again.
    expect(await new Renditions(blobs, engine).keyFor('catalog/master.mp3', 128, '192kbps')).toBe(first);
    expect((await blobs.stat(first))!.size).toBe(stored);
  });
});
