/** Module G: every AI track is recorded here, append-only and hash-chained, before it may play. */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import { DomainError } from '../../errors.js';
import type { NewRegistryRecord, RegistryRepository, RegistryRow, SafetyFlagRow } from './registry.repository.js';
import type { ReviewState, SafetyReviewRepository, WithheldReason } from './safety-review.repository.js';

export function newStationTrackId(): string {
  return `stn_${randomBytes(12).toString('base64url')}`;
}

export const trackNotFound = (id: string) =>
  new DomainError('not_found', 'TRACK_NOT_FOUND', 'station_track_id does not exist in the registry', `no registry record ${id}`);

export type RegisterInput = Omit<NewRegistryRecord, 'trackType'> & { trackType?: 'ai_generated' };

export class RegistryService {
  constructor(
    private readonly repo: RegistryRepository,
    private readonly clock: Clock,
    private readonly reviews: Pick<SafetyReviewRepository, 'state' | 'reusableAiTrack'>,
  ) {}

  register(input: RegisterInput): Promise<RegistryRow> {
    return this.repo.append({ ...input, trackType: 'ai_generated' });
  }

  async get(stationTrackId: string): Promise<RegistryRow> {
    const row = await this.repo.find(stationTrackId);
    if (!row) throw trackNotFound(stationTrackId);
    return row;
  }

  /** Whether an AI track of this station_track_id is in the registry (the radio's feedback checks it). */
  async exists(stationTrackId: string): Promise<boolean> {
    return (await this.repo.find(stationTrackId)) !== null;
  }

  async countPlayback(stationTrackId: string): Promise<RegistryRow> {
    const row = await this.repo.countPlayback(stationTrackId, this.clock.date());
    if (!row) throw trackNotFound(stationTrackId);
    return row;
  }

  /**
   * Why the track may not be played, or null when it may: the safety filter's verdict, an admin's flag, or
   * report_threshold distinct listeners' reports. A track merely in the review queue still plays.
   */
  async withheldReason(stationTrackId: string): Promise<WithheldReason | null> {
    return (await this.reviews.state(stationTrackId))?.withheldReason ?? null;
  }

  /** Withholds a registered track (or lyric) on the safety filter's verdict: one flag, kept with the record. */
  async raiseSafetyFlag(flag: Pick<SafetyFlagRow, 'stationTrackId' | 'generationId' | 'lyricId' | 'flagType' | 'safetyScore' | 'detail'>): Promise<void> {
    await this.repo.insertSafetyFlag(flag);
  }

  /** A reuse_eligible AI track that may play, least played first, other than those in `avoid` (the radio's fallback). */
  reusableAiTrack(avoid: string[]): Promise<RegistryRow | null> {
    return this.reviews.reusableAiTrack(avoid);
  }

  async isWithheld(stationTrackId: string): Promise<boolean> {
    return (await this.withheldReason(stationTrackId)) !== null;
  }

  /** The record as the API shows it, with its review state (undefined: the track was never reviewed). */
  static toRecord(row: RegistryRow, review: ReviewState | undefined) {
    return {
      station_track_id: row.stationTrackId,
      generation_id: row.generationId,
      track_type: row.trackType as 'ai_generated',
      session_id: row.sessionId,
      radio_only: row.radioOnly,
      model_version: row.modelVersion,
      lyrics_model_version: row.lyricsModelVersion,
      training_dataset_hash: row.trainingDatasetHash,
      context_snapshot: row.contextSnapshot,
      generated_at: row.generatedAt.toISOString(),
      first_played_at: row.firstPlayedAt ? row.firstPlayedAt.toISOString() : null,
      playback_count: row.playbackCount,
      reuse_eligible: row.reuseEligible,
      flag_for_review: row.flagForReview,
      withheld: (review?.withheldReason ?? null) !== null,
      withheld_reason: review?.withheldReason ?? null,
      listener_reports: review?.listenerReports ?? 0,
      safety_score: row.safetyScore,
      title: row.title,
      genre: row.genre,
      mood: row.mood,
      bpm: row.bpm,
      duration_sec: row.durationSec,
      lyric_id: row.lyricId,
      influenced_by: row.influencedBy,
      audio_sha256: row.audioSha256,
      seq: row.seq,
      prev_hash: row.prevHash,
      record_hash: row.recordHash,
    };
  }
}
