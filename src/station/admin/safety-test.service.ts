/**
 * Module A: POST /admin/safety/test runs the engine's real safety filter (the one every generated
 * track and lyric passes) on content an admin supplies, against the current safety reference.
 */
import type { Engine, SafetyVerdict } from '../../engine/engine.js';
import type { AudioFeatures } from '../../engine/types.js';
import { Errors } from '../../errors.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import type { ConfigRepository } from './config.repository.js';

export interface SafetyTestInput {
  lyrics?: string | Record<string, string>;
  audio_track_id?: string;
  audio_features?: AudioFeatures;
  explicit_allowed?: boolean;
}

/** The catalog's read port (src/platform/catalog/track-reads.ts): a catalog track's stored features. */
export interface CatalogFeaturesRead {
  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  trackFeatures(trackId: string): Promise<AudioFeatures | null>;
}

type Verdict = Omit<SafetyVerdict, 'details'> & { details: unknown };

export interface SafetyTestResult {
  safety_score: number;
  flagged_categories: string[];
  explicit_detected: boolean;
  playable: boolean;
  explicit_allowed: boolean;
  reference_version: string;
  checks: { lyrics?: Verdict; audio?: Verdict };
}

export class SafetyTestService {
  constructor(
    private readonly engine: Pick<Engine, 'checkLyrics' | 'checkAudio'>,
    private readonly reference: Pick<SafetyReferenceStore, 'ref'>,
    private readonly config: Pick<ConfigRepository, 'get'>,
    private readonly catalog: CatalogFeaturesRead,
  ) {}

  async run(input: SafetyTestInput): Promise<SafetyTestResult> {
    const hasLyrics = input.lyrics !== undefined && (typeof input.lyrics === 'string' ? input.lyrics.trim() !== '' : Object.keys(input.lyrics).length > 0);
    if (input.audio_track_id !== undefined && input.audio_features !== undefined) {
      throw Errors.validation('give either audio_track_id or audio_features, not both');
    }
    if (!hasLyrics && input.audio_track_id === undefined && input.audio_features === undefined) {
      throw Errors.validation('give lyrics, audio_track_id or audio_features to test');
    }
    let features = input.audio_features ?? null;
    if (input.audio_track_id !== undefined) {
      features = await this.catalog.trackFeatures(input.audio_track_id);
      if (!features) throw Errors.notFound('Catalog track with audio features', input.audio_track_id);
    }
    const explicitAllowed = input.explicit_allowed ?? (await this.config.get()).explicitAllowed;
    const ref = await this.reference.ref();
    const [lyrics, audio] = await Promise.all([
      hasLyrics ? this.engine.checkLyrics(ref, input.lyrics as string | Record<string, string>, explicitAllowed) : null,
      features ? this.engine.checkAudio(ref, features) : null,
    ]);
    const verdicts = [lyrics, audio].filter((v): v is SafetyVerdict => v !== null);
    const checks: SafetyTestResult['checks'] = {};
    if (lyrics) checks.lyrics = lyrics;
    if (audio) checks.audio = audio;
    return {
      safety_score: Math.min(...verdicts.map((v) => v.safety_score)),
      flagged_categories: [...new Set(verdicts.flatMap((v) => v.flagged_categories))],
      explicit_detected: verdicts.some((v) => v.explicit_detected),
      playable: verdicts.every((v) => v.playable),
      explicit_allowed: explicitAllowed,
      reference_version: ref.version,
      checks,
    };
  }
}
