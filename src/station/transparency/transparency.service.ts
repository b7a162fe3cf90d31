/**
 * Module I: what listeners may know about an AI track (what shaped it, what its model learned from, how
 * it is labelled) and the station's own statement. Reads the registry; never exposes training items.
 */
import { TRAINED_ALGORITHMIC_MEDIA } from '../../engine/audio/id3.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { ModelVersionRow } from '../models/models.repository.js';
import { STATION_NAME } from '../../kernel/station-name.js';
import type { ChainAuditService } from '../registry/chain-audit.js';
import type { ModelLineageRepository } from '../models/model-lineage.repository.js';
import { LYRICS_SOURCE_STATEMENT } from '../registry/registry-admin.service.js';
import type { RegistryRepository, SafetyFlagRow } from '../registry/registry.repository.js';
import { trackNotFound } from '../registry/registry.service.js';
import type { SafetyReviewRepository } from '../registry/safety-review.repository.js';
import type { DatasetProvenance, DatasetVerdict } from './dataset-provenance.js';
import { LEGAL_COMPLIANCE, POLICY_PATH, SYSTEM_DESCRIPTION, TRAINING_DATA_POLICY, trainingDataStatement } from './policy.js';

/** Safety flags that mean a track resembles existing work (as opposed to, say, explicit language). */
const SIMILARITY_FLAG = /similarity|duplicate|copyright|third_party/;

export function isSimilarityFlag(flag: Pick<SafetyFlagRow, 'flagType' | 'detail'>): boolean {
  if (SIMILARITY_FLAG.test(flag.flagType)) return true;
  const categories = Object.values(flag.detail ?? {}).flatMap((v) => (Array.isArray(v) ? v : []));
  return categories.some((c) => typeof c === 'string' && SIMILARITY_FLAG.test(c));
}

export interface SungLyrics {
  language: string;
  sections: { name: string; text: string }[];
}

export interface TransparencyDeps {
  registry: Pick<RegistryRepository, 'find' | 'safetyFlagsOf' | 'totals'>;
  models: Pick<ModelLineageRepository, 'findByVersion' | 'production'>;
  provenance: Pick<DatasetProvenance, 'verdict'>;
  chain: Pick<ChainAuditService, 'head'>;
  reviews: Pick<SafetyReviewRepository, 'state'>;
  /** The words of a track's lyrics (module F's record), in the order they are sung. */
  lyricsOf: (lyricId: string) => Promise<SungLyrics | null>;
  clock: Clock;
  publicBaseUrl: string;
}

function datasetSummary(model: ModelVersionRow | null, verdict: DatasetVerdict | null, fallbackHash: string) {
  const lineageItems = typeof model?.lineage.items === 'number' ? model.lineage.items : null;
  return {
    dataset_hash: model?.datasetHash ?? fallbackHash,
    model_version: model?.version ?? null,
    items: verdict?.items ?? lineageItems,
    platform_owned_items: verdict?.platform_owned_items ?? null,
    other_items: verdict?.other_items ?? null,
    verified: verdict?.verified ?? false,
  };
}

export class TransparencyService {
  constructor(private readonly deps: TransparencyDeps) {}

  get policyUrl(): string {
    return `${this.deps.publicBaseUrl}${POLICY_PATH}`;
  }

  async track(stationTrackId: string) {
    const { registry, models, provenance } = this.deps;
    const row = await registry.find(stationTrackId);
    if (!row) throw trackNotFound(stationTrackId);
    const [audioModel, lyricsModel, flags, review, lyrics] = await Promise.all([
      models.findByVersion(row.modelVersion),
      row.lyricsModelVersion ? models.findByVersion(row.lyricsModelVersion) : Promise.resolve(null),
      registry.safetyFlagsOf(stationTrackId),
      this.deps.reviews.state(stationTrackId),
      row.lyricId ? this.deps.lyricsOf(row.lyricId) : Promise.resolve(null),
    ]);
    const [audioVerdict, lyricsVerdict] = await Promise.all([
      provenance.verdict('audio', row.trainingDatasetHash),
      lyricsModel ? provenance.verdict('lyrics', lyricsModel.datasetHash) : Promise.resolve(null),
    ]);
    const thirdPartyInDatasets = [audioVerdict, lyricsVerdict].some((v) => v?.verified && (v.other_items ?? 0) > 0);
    const similarityFlags = flags.filter(isSimilarityFlag);
    const context = row.contextSnapshot as { genre?: unknown; mood?: unknown; lifestyle?: unknown };
    const lyricsSource = row.lyricId ? LYRICS_SOURCE_STATEMENT : null;

    return {
      station_track_id: row.stationTrackId,
      is_ai_generated: true as const,
      track_origin: 'ai_generated' as const,
      title: row.title,
      model_version: row.modelVersion,
      training_data_source: trainingDataStatement(row.trainingDatasetHash),
      influencing_genre: typeof context.genre === 'string' ? context.genre : row.genre,
      influencing_mood: Array.isArray(context.mood) ? context.mood.map(String) : row.mood,
      influencing_lifestyle: typeof context.lifestyle === 'string' ? context.lifestyle : null,
      lyrics_source: lyricsSource,
      lyrics_model_version: row.lyricsModelVersion,
      lyrics,
      no_third_party_content: !thirdPartyInDatasets && similarityFlags.length === 0,
      generated_at: row.generatedAt.toISOString(),
      policy_url: this.policyUrl,
      radio_only: row.radioOnly,
      withheld: (review?.withheldReason ?? null) !== null,
      training_dataset_summary: {
        audio: datasetSummary(audioModel, audioVerdict, row.trainingDatasetHash),
        lyrics: lyricsModel ? datasetSummary(lyricsModel, lyricsVerdict, lyricsModel.datasetHash) : null,
        sources: { audio: TRAINING_DATA_POLICY.audio, lyrics: TRAINING_DATA_POLICY.lyrics },
      },
      influenced_by: row.influencedBy,
      ai_label: {
        carried_in: 'ID3v2.4 tag of the MP3 (TXXX frames)',
        digital_source_type: TRAINED_ALGORITHMIC_MEDIA,
        track_origin: 'ai_generated' as const,
        station: STATION_NAME,
        model_version: row.modelVersion,
        station_track_id: row.stationTrackId,
      },
    };
  }

  async station() {
    const [totals, production, head] = await Promise.all([this.deps.registry.totals(), this.deps.models.production(), this.deps.chain.head()]);
    return {
      station: STATION_NAME,
      system_description: SYSTEM_DESCRIPTION,
      legal_compliance: LEGAL_COMPLIANCE,
      total_ai_tracks_generated: totals.generated,
      total_ai_tracks_played: totals.played,
      total_ai_plays: totals.plays,
      training_data_policy: TRAINING_DATA_POLICY,
      current_models: production.map((m) => ({
        model_type: m.modelType,
        version: m.version,
        dataset_hash: m.datasetHash,
        deployed_at: m.deployedAt ? m.deployedAt.toISOString() : null,
      })),
      registry_chain_head: head,
      policy_url: this.policyUrl,
      as_of: this.deps.clock.date().toISOString(),
    };
  }
}
