/** Module H: what listeners see of the radio. */
import type { Principal } from '../../auth/principal.js';
import type { Clock } from '../../infra/clock/clock.js';
import { DomainError } from '../../errors.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { SafetyReviewService } from '../registry/safety-review.service.js';
import type { CardBuilder } from '../scheduler/cards.js';
import type { RadioStatusView } from '../scheduler/status-view.js';
import type { SlotsRepository } from '../scheduler/slots.repository.js';
import type { StreamTickets } from './stream-tickets.js';
import type { ListeningSessionsRepository } from './listening-sessions.repository.js';
import type { ReporterEligibility } from './reporter-eligibility.js';
import type { GenerationRow } from '../generation/generation.repository.js';
import type { FeedbackRepository } from './feedback.repository.js';
import { listenerKeyOf } from '../realtime/listener-presence.js';

export const STREAM_PATH = '/station/v1/radio/stream';
/** The HLS rendition: <HLS_PATH>/live.m3u8 and its segments, read from the blobs under HLS_BLOB_PREFIX. */
export const HLS_PATH = '/station/v1/radio/hls';
export const HLS_BLOB_PREFIX = 'hls/live';
const HISTORY_SIZE = 20;

export interface FeedbackInput {
  station_track_id: string;
  rating: 'thumbs_up' | 'thumbs_down';
  flag_inappropriate?: boolean;
}

/** Module G's read port: whether an AI track of this station_track_id is in the registry. */
export interface AiTrackLookup {
  exists(stationTrackId: string): Promise<boolean>;
}

/** Module E's read port: the state and title of generations, by id (those that exist). */
export interface GenerationTitles {
  titlesOf(ids: string[]): Promise<Pick<GenerationRow, 'id' | 'status' | 'title'>[]>;
}

/** The catalog's read port: whether a track is published in the live catalog (the radio's listeners are live). */
export interface LiveCatalogCheck {
  publishedLiveTrackExists(trackId: string): Promise<boolean>;
}

/** What the radio's listener view reads of other modules. */
export interface RadioReads {
  aiTracks: AiTrackLookup;
  generations: GenerationTitles;
  catalog: LiveCatalogCheck;
}

export class RadioService {
  constructor(
    private readonly feedbacks: FeedbackRepository,
    private readonly reads: RadioReads,
    private readonly status: Pick<RadioStatusView, 'nowPlaying' | 'listenerCount' | 'upcoming'>,
    private readonly slots: SlotsRepository,
    private readonly cards: CardBuilder,
    private readonly config: ConfigRepository,
    private readonly tickets: StreamTickets,
    private readonly reviews: Pick<SafetyReviewService, 'report' | 'announce'>,
    private readonly publicBaseUrl: string,
    /** Whose listener reports count (reporter-eligibility.ts). */
    private readonly eligibility: ReporterEligibility,
    /** Where stream tickets are noted: a ticket held while a track airs makes its holder's report count. */
    private readonly sessions: Pick<ListeningSessionsRepository, 'record'>,
    private readonly clock: Clock,
  ) {}

  async streamInfo(principal: Principal) {
    const config = await this.config.get();
    const nowPlaying = await this.status.nowPlaying();
    const { ticket, expiresAt } = this.tickets.issue(principal.credentialId);
    await this.sessions.record(listenerKeyOf(principal), 'ticket', this.clock.date(), expiresAt);
    const wsBase = this.publicBaseUrl.replace(/^http/, 'ws');
    return {
      stream_url: `${this.publicBaseUrl}${STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`,
      stream_url_expires: expiresAt.toISOString(),
      hls_url: `${this.publicBaseUrl}${HLS_PATH}/live.m3u8?ticket=${encodeURIComponent(ticket)}`,
      bitrate: Number.parseInt(config.streamQuality, 10),
      format: 'audio/mpeg',
      listener_count: await this.status.listenerCount(),
      station_status: config.radioEnabled ? ('on_air' as const) : ('off_air' as const),
      stream_quality: config.streamQuality,
      generation_mode: config.generationMode,
      now_playing: nowPlaying,
      websocket_url: `${wsBase}/station/ws/now-playing`,
    };
  }

  async nowPlaying() {
    const card = await this.status.nowPlaying();
    if (!card) throw new DomainError('not_found', 'NOT_FOUND', 'Nothing is on air', 'the radio is off or has not started a track yet');
    return card;
  }

  /** The next five slots, each marked catalog or AI; an AI slot shows its title once generated. */
  async queue() {
    const upcoming = await this.status.upcoming();
    const generationIds = upcoming.map((s) => s.generationId).filter((id): id is string => !!id);
    const generated = generationIds.length ? await this.reads.generations.titlesOf(generationIds) : [];
    const byGeneration = new Map(generated.map((g) => [g.id, g]));
    const data = [];
    for (const [index, slot] of upcoming.entries()) {
      if (slot.origin === 'ai_generated') {
        const generation = slot.generationId ? byGeneration.get(slot.generationId) : undefined;
        data.push({
          position: index + 1,
          track_origin: 'ai_generated' as const,
          is_ai_generated: true,
          title: generation?.title ?? null,
          artist: 'Station',
          generation_status: generation?.status ?? 'scheduled',
          duration_sec: Math.round(slot.durationSec ?? 0),
        });
      } else {
        const card = await this.cards.forSlot(slot);
        data.push({
          position: index + 1,
          track_origin: 'catalog' as const,
          is_ai_generated: false,
          title: card?.title ?? null,
          artist: card?.artist ?? null,
          generation_status: null,
          duration_sec: card?.duration_sec ?? Math.round(slot.durationSec ?? 0),
        });
      }
    }
    return { data };
  }

  async history(sessionId?: string) {
    const rows = await this.slots.history(HISTORY_SIZE, sessionId);
    const data = [];
    for (const slot of rows) {
      const card = await this.cards.forSlot(slot);
      if (!card) continue;
      data.push({ ...card, played_at: slot.startedAt!.toISOString(), session_id: slot.sessionId, replaced_reason: slot.replacedReason ?? null });
    }
    return { data, session_id: sessionId ?? null };
  }

  /**
   * Stores a rating. flag_inappropriate on an AI track is a report (module G's safety review): stored with
   * the feedback in one transaction; it puts the track in the review queue, and withholds it once
   * report_threshold distinct listeners reported it. A report counts only from an eligible reporter
   * (reporter-eligibility.ts) and once per client address (`clientKey`, the address as TRUST_PROXY resolves it).
   */
  async feedback(principal: Principal, input: FeedbackInput, clientKey: string) {
    const aiTrack = (await this.reads.aiTracks.exists(input.station_track_id)) ? input.station_track_id : null;
    if (!aiTrack && !(await this.reads.catalog.publishedLiveTrackExists(input.station_track_id))) {
      throw new DomainError('not_found', 'TRACK_NOT_FOUND', 'station_track_id does not exist', `no track ${input.station_track_id}`);
    }
    const reports = !!aiTrack && !!input.flag_inappropriate && (await this.eligibility.eligible(principal, aiTrack));
    const { row, result: report } = await this.feedbacks.record(
      {
        userId: principal.userId,
        apiKeyId: principal.apiKeyId,
        stationTrackId: input.station_track_id,
        rating: input.rating,
        flagInappropriate: input.flag_inappropriate ?? false,
      },
      (tx, row) => (aiTrack && reports ? this.reviews.report(tx, aiTrack, { ...principal, clientKey }, row.id) : Promise.resolve(null)),
    );
    await this.reviews.announce(report);
    return {
      feedback_id: row.id,
      station_track_id: row.stationTrackId,
      rating: row.rating,
      flag_inappropriate: row.flagInappropriate,
      created_at: row.createdAt.toISOString(),
    };
  }
}
