/**
 * The safety review of AI tracks (module G). Listener flags are reports, not verdicts:
 *
 *   first report          -> the track enters the review queue (flag_for_review), keeps airing;
 *                            station.safety.flag_raised once, when it enters the queue
 *   report_threshold      -> withheld from playback (a listener_reports_threshold record)
 *   distinct listeners
 *   admin flag            -> withheld at once (a manual_review record)
 *   admin clears the flag -> approved: back on air; the round closes and later reports count afresh
 *
 * The safety filter's own verdicts (made while generating) withhold for good.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { AfterCommit } from '../../infra/pubsub/recorded-publish.js';
import type { TransactionalStationEvents } from '../events/station-events.js';
import type { AdminFlagChanges, AdminFlagOutcome, ReportOutcome, ReviewState, SafetyReviewRepository } from './safety-review.repository.js';

/** A report as recorded, with the after-commit wake-up of the event it raised (null when it raised none). */
export type RecordedReport = ReportOutcome & { afterCommit: AfterCommit | null };

/** Reports listed with a track's review; the count covers them all. */
export const REPORTS_LISTED = 100;

export interface Reporter {
  userId: string | null;
  apiKeyId: string | null;
  credentialId: string;
  /** The client address the report came from (one counted report per address); null when unknown. */
  clientKey?: string | null;
}

/** One identity per listener account (or per API key), so a listener counts once however often they report. */
export function reporterKey(reporter: Reporter): string {
  if (reporter.userId) return `user:${reporter.userId}`;
  if (reporter.apiKeyId) return `api_key:${reporter.apiKeyId}`;
  return `credential:${reporter.credentialId}`;
}

export class SafetyReviewService {
  constructor(
    private readonly deps: {
      reviews: SafetyReviewRepository;
      /** station.safety.flag_raised, recorded in the webhooks' outbox in the transaction that puts the track in review. */
      events: TransactionalStationEvents;
      clock: Clock;
    },
  ) {}

  /**
   * Records a listener's flag_inappropriate report inside the caller's transaction (which also stores the
   * feedback), and station.safety.flag_raised in the webhooks' outbox when the report put the track in the
   * queue (never for later reports); null when the id is not a registered AI track. Call `announce` after the
   * commit.
   */
  async report(tx: DbOrTx, stationTrackId: string, reporter: Reporter, feedbackId: string): Promise<RecordedReport | null> {
    const outcome = await this.deps.reviews.recordReport(tx, {
      stationTrackId,
      reporter: reporterKey(reporter),
      userId: reporter.userId,
      clientKey: reporter.clientKey ?? null,
      feedbackId,
      at: this.deps.clock.date(),
    });
    if (!outcome?.enteredReview) return outcome && { ...outcome, afterCommit: null };
    const afterCommit = await this.deps.events.recordIn(tx, 'station.safety.flag_raised', {
      station_track_id: outcome.track.stationTrackId,
      flag_type: 'listener_report',
      safety_score: outcome.track.safetyScore,
      withheld: outcome.withheld,
    });
    return { ...outcome, afterCommit };
  }

  /** After the report's commit: wakes the delivery of its event up, if it raised one. */
  async announce(report: RecordedReport | null): Promise<void> {
    await report?.afterCommit?.();
  }

  /** PATCH of reuse_eligible / flag_for_review; null when the track does not exist. */
  async adminUpdate(
    stationTrackId: string,
    changes: AdminFlagChanges,
    actor: { userId: string | null; credentialId: string | null },
  ): Promise<AdminFlagOutcome | null> {
    let afterCommit: AfterCommit | null = null;
    const outcome = await this.deps.reviews.applyAdminFlags(
      stationTrackId,
      changes,
      { userId: actor.userId, label: actor.userId ?? actor.credentialId },
      this.deps.clock.date(),
      async (tx, decided) => {
        if (!decided.enteredReview) return;
        afterCommit = await this.deps.events.recordIn(tx, 'station.safety.flag_raised', {
          station_track_id: stationTrackId,
          flag_type: 'manual_review',
          safety_score: decided.row.safetyScore,
          withheld: true,
        });
      },
    );
    // Assigned in the callback above, which TypeScript's narrowing of `let` does not follow.
    await (afterCommit as AfterCommit | null)?.();
    return outcome;
  }

  /** report_threshold changed: tracks in the queue that now reach it are withheld (raising it releases none). */
  applyThreshold(threshold: number): Promise<string[]> {
    return this.deps.reviews.withholdReaching(threshold, this.deps.clock.date());
  }

  states(stationTrackIds: string[]): Promise<Map<string, ReviewState>> {
    return this.deps.reviews.states(stationTrackIds);
  }

  /** The review as the registry record's detail shows it; null when the track does not exist. */
  async detail(stationTrackId: string) {
    const state = await this.deps.reviews.state(stationTrackId);
    if (!state) return null;
    const [reports, threshold] = await Promise.all([this.deps.reviews.reports(stationTrackId, state.round, REPORTS_LISTED), this.deps.reviews.threshold()]);
    return {
      in_review: state.inReview,
      withheld: state.withheldReason !== null,
      withheld_reason: state.withheldReason,
      withheld_at: state.withheldAt ? state.withheldAt.toISOString() : null,
      round: state.round,
      listener_reports: state.listenerReports,
      report_threshold: threshold,
      reports: reports.map((r) => ({ reporter: r.reporter, user_id: r.userId, feedback_id: r.feedbackId, reported_at: r.createdAt.toISOString() })),
      last_approved_at: state.approvedAt ? state.approvedAt.toISOString() : null,
      last_approved_by: state.approvedBy,
    };
  }
}
