/**
 * Worker-side artifacts: bytes are fetched from the main thread on demand, checked against their sha256,
 * parsed, and the parsed value (a model, a SafetyFilter, embedded catalog) is kept by content hash, so a
 * repeated call with the same artifact costs neither I/O nor parsing. Small LRU: models can be megabytes.
 */
import { createHash } from 'node:crypto';
import type { ArtifactRef, SafetyReference } from '../engine.js';
import { EngineError } from '../errors.js';
import type { LyricsModel } from '../lyrics/model.js';
import { deserialiseAudioModel, type AudioModel } from '../compose/audio-model.js';
import { SafetyFilter } from '../safety/index.js';
import { STYLE_MODEL_FORMAT, type StyleEmbeddingModel } from '../style/model.js';

export type FetchBytes = (ref: ArtifactRef) => Promise<Uint8Array>;

export interface ParsedArtifacts {
  audioModel: AudioModel;
  lyricsModel: LyricsModel;
  styleModel: StyleEmbeddingModel;
  safetyReference: SafetyReference;
  safetyFilter: SafetyFilter;
  /** A training dataset: items are checked by the trainer that reads them. */
  dataset: unknown[];
}
export type ArtifactKind = keyof ParsedArtifacts;

const PARSERS: { [K in ArtifactKind]: (text: string) => ParsedArtifacts[K] } = {
  audioModel: (text) => deserialiseAudioModel(text),
  lyricsModel: (text) => checkFormat<LyricsModel>(parseJson(text), 'station-lyrics-v1', 'lyrics model'),
  styleModel: (text) => checkFormat<StyleEmbeddingModel>(parseJson(text), STYLE_MODEL_FORMAT, 'style model'),
  safetyReference: (text) => parseSafetyReference(text),
  safetyFilter: (text) => {
    const reference = parseSafetyReference(text);
    return new SafetyFilter({ trainingLyrics: reference.lyrics, catalogAudio: reference.audio });
  },
  dataset: (text) => {
    const value = parseJson(text);
    if (!Array.isArray(value)) throw new EngineError('ARTIFACT_INVALID', 'a training dataset must be a JSON array', { stage: 'artifact' });
    return value;
  },
};

const DEFAULT_CAPACITY = 12;

export class ArtifactCache {
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The parsed artifact, from the cache or fetched, verified and parsed now. */
  async get<K extends ArtifactKind>(ref: ArtifactRef, kind: K, fetch: FetchBytes): Promise<ParsedArtifacts[K]> {
    return this.memo(`${kind}:${ref.sha256.toLowerCase()}`, () => readArtifact(ref, kind, fetch));
  }

  /** A value derived from artifacts (e.g. catalog embeddings), cached under a key naming their hashes. */
  async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as T;
      this.entries.delete(key); // re-insert: most recently used last
      this.entries.set(key, value);
      return value;
    }
    const value = await compute();
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Fetches, verifies and parses an artifact without caching it (datasets, one-off references). */
export async function readArtifact<K extends ArtifactKind>(ref: ArtifactRef, kind: K, fetch: FetchBytes): Promise<ParsedArtifacts[K]> {
  return PARSERS[kind](decodeText(await fetchVerified(ref, fetch)));
}

/** Bytes of an artifact that match its ref's sha256 (or ARTIFACT_INVALID). */
export async function fetchVerified(ref: ArtifactRef, fetch: FetchBytes): Promise<Uint8Array> {
  const bytes = await fetch(ref);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== ref.sha256.toLowerCase()) {
    throw new EngineError('ARTIFACT_INVALID', `artifact ${ref.blobKey} (${ref.version}) does not match its sha256`, {
      stage: 'artifact',
      details: { blobKey: ref.blobKey, expected: ref.sha256, actual },
    });
  }
  return bytes;
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EngineError('ARTIFACT_INVALID', `artifact is not JSON: ${(error as Error).message}`, { stage: 'artifact' });
  }
}

function checkFormat<T>(value: unknown, format: string, what: string): T {
  if ((value as { format?: unknown } | null)?.format !== format) {
    throw new EngineError('ARTIFACT_INVALID', `not a ${what} (expected format "${format}")`, { stage: 'artifact' });
  }
  return value as T;
}

function parseSafetyReference(text: string): SafetyReference {
  const value = parseJson(text) as Partial<SafetyReference> | null;
  if (!value || !Array.isArray(value.lyrics) || !Array.isArray(value.audio)) {
    throw new EngineError('ARTIFACT_INVALID', 'not a safety reference (expected { lyrics: [], audio: [] })', { stage: 'artifact' });
  }
  return value as SafetyReference;
}
