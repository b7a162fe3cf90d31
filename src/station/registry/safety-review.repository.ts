/**
 * Module G's safety review in the database. Every change to a track's review runs in one transaction that
 * first locks the track's registry row, so for one track the changes happen one after another: two
 * concurrent reports cannot both be "the first" (entering the queue) or both "the third" (withholding).
 * A listener's repeated report is absorbed by the unique index (track, round, reporter), a second report
 * from one client address by (track, round, client_key).
 */
import { and, asc, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { registryTracks, safetyFlags, safetyReports, safetyReviews } from '../../infra/db/schema/index.js';
import type { RegistryRow, SafetyFlagRow } from './registry.repository.js';

/** Why a track may not be played: the safety filter's verdict, an admin's flag, or enough listener reports. */
export const WITHHELD_REASONS = ['safety_filter', 'admin_flag', 'listener_reports'] as const;
export type WithheldReason = (typeof WITHHELD_REASONS)[number];

/** safety_flags rows that record review steps; every other flag type is a safety filter verdict. */
export const REVIEW_FLAG_TYPES = ['manual_review', 'listener_report', 'listener_reports_threshold'] as const;

/** SQL: the safety filter gave the registry track in the outer query a verdict (withheld for good). */
export const safetyFilteredSql = () =>
  sql<boolean>`exists (select 1 from ${safetyFlags} where ${safetyFlags.stationTrackId} = ${registryTracks.stationTrackId} and ${notInArray(safetyFlags.flagType, [...REVIEW_FLAG_TYPES])})`;

/** SQL: the registry track in the outer query may be played (no filter verdict, not withheld by a review). */
export const notWithheldSql = () =>
  sql<boolean>`not ${safetyFilteredSql()} and not exists (select 1 from ${safetyReviews} where ${safetyReviews.stationTrackId} = ${registryTracks.stationTrackId} and ${safetyReviews.withheldReason} is not null)`;

/** Used while no configuration row exists yet (the contract's default). */
const DEFAULT_REPORT_THRESHOLD = 3;

export interface ReviewState {
  stationTrackId: string;
  inReview: boolean;
  round: number;
  withheldReason: WithheldReason | null;
  withheldAt: Date | null;
  /** Distinct listeners who reported the track in the open round. */
  listenerReports: number;
  approvedAt: Date | null;
  approvedBy: string | null;
}

export type ReportRow = typeof safetyReports.$inferSelect;

export interface ReportInput {
  stationTrackId: string;
  reporter: string;
  userId: string | null;
  clientKey: string | null;
  feedbackId: string;
  at: Date;
}

/** What one listener report changed. Null from recordReport: the id is not a registered AI track. */
export interface ReportOutcome {
  track: RegistryRow;
  /** false: this listener, or another from the same client address, had already reported the track in this round. */
  counted: boolean;
  reporters: number;
  threshold: number;
  /** The report put the track in the review queue (it was not there). */
  enteredReview: boolean;
  /** The report made the distinct reporters reach the threshold: the track is now withheld. */
  withheld: boolean;
}

export interface AdminFlagChanges {
  reuseEligible?: boolean;
  flagForReview?: boolean;
}

export interface AdminFlagOutcome {
  row: RegistryRow;
  enteredReview: boolean;
  /** The manual_review record written when an admin's flag withheld the track. */
  raised: SafetyFlagRow | null;
  /** An admin cleared the flag: the review round closed and the track may play again. */
  approved: boolean;
}

/**
 * Module A's read port on the station's configuration: report_threshold as configured (null before the record
 * exists), read in the given transaction so that a report is judged against the threshold of its moment.
 */
export type ReportThresholdRead = (tx: DbOrTx) => Promise<number | null>;

export class SafetyReviewRepository {
  constructor(
    private readonly db: Db,
    private readonly configuredThreshold: ReportThresholdRead,
  ) {}

  /**
   * An AI track an admin marked reuse_eligible, not flagged nor withheld, least played first, other than those in
   * `avoid` (the radio's fallback_mode hybrid while the ML engine is down).
   */
  async reusableAiTrack(avoid: string[]): Promise<RegistryRow | null> {
    const [row] = await this.db
      .select()
      .from(registryTracks)
      .where(
        and(
          eq(registryTracks.reuseEligible, true),
          eq(registryTracks.flagForReview, false),
          notWithheldSql(),
          avoid.length ? notInArray(registryTracks.stationTrackId, avoid) : undefined,
        ),
      )
      .orderBy(asc(registryTracks.playbackCount), asc(registryTracks.seq))
      .limit(1);
    return row ?? null;
  }

  /** Locks the track's registry row for the rest of the transaction; null when there is no such track. */
  private async lockTrack(tx: DbOrTx, stationTrackId: string): Promise<RegistryRow | null> {
    const [row] = await tx.select().from(registryTracks).where(eq(registryTracks.stationTrackId, stationTrackId)).for('update');
    return row ?? null;
  }

  private async openReview(tx: DbOrTx, stationTrackId: string) {
    await tx.insert(safetyReviews).values({ stationTrackId }).onConflictDoNothing();
    const [review] = await tx.select().from(safetyReviews).where(eq(safetyReviews.stationTrackId, stationTrackId));
    return review;
  }

  private async reportersInRound(tx: DbOrTx, stationTrackId: string, round: number): Promise<number> {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(safetyReports)
      .where(and(eq(safetyReports.stationTrackId, stationTrackId), eq(safetyReports.round, round)));
    return Number(n);
  }

  /** report_threshold as configured (read in the caller's transaction when given). */
  async threshold(tx: DbOrTx = this.db): Promise<number> {
    return (await this.configuredThreshold(tx)) ?? DEFAULT_REPORT_THRESHOLD;
  }

  private async withholdByReports(tx: DbOrTx, track: RegistryRow, round: number, reporters: number, threshold: number, at: Date) {
    await tx
      .update(safetyReviews)
      .set({ withheldReason: 'listener_reports', withheldAt: at, updatedAt: at })
      .where(eq(safetyReviews.stationTrackId, track.stationTrackId));
    await tx.insert(safetyFlags).values({
      stationTrackId: track.stationTrackId,
      generationId: track.generationId,
      lyricId: track.lyricId,
      flagType: 'listener_reports_threshold',
      safetyScore: track.safetyScore,
      detail: { source: 'listener_reports', reporters, report_threshold: threshold, review_round: round },
      createdAt: at,
    });
  }

  /**
   * Records one listener report inside the caller's transaction (the feedback row is written in the same
   * one). The threshold is the one configured when the report is made.
   */
  async recordReport(tx: DbOrTx, input: ReportInput): Promise<ReportOutcome | null> {
    const track = await this.lockTrack(tx, input.stationTrackId);
    if (!track) return null;
    const review = await this.openReview(tx, track.stationTrackId);
    const threshold = await this.threshold(tx);
    const inserted = await tx
      .insert(safetyReports)
      .values({
        stationTrackId: track.stationTrackId,
        round: review.round,
        reporter: input.reporter,
        userId: input.userId,
        clientKey: input.clientKey,
        feedbackId: input.feedbackId,
        createdAt: input.at,
      })
      .onConflictDoNothing()
      .returning({ id: safetyReports.id });
    const reporters = await this.reportersInRound(tx, track.stationTrackId, review.round);
    const outcome: ReportOutcome = { track, counted: inserted.length > 0, reporters, threshold, enteredReview: false, withheld: false };
    if (!outcome.counted) return outcome;

    if (!track.flagForReview) {
      [outcome.track] = await tx.update(registryTracks).set({ flagForReview: true }).where(eq(registryTracks.stationTrackId, track.stationTrackId)).returning();
      await tx.insert(safetyFlags).values({
        stationTrackId: track.stationTrackId,
        generationId: track.generationId,
        lyricId: track.lyricId,
        flagType: 'listener_report',
        safetyScore: track.safetyScore,
        detail: { source: 'listener_report', feedback_id: input.feedbackId, review_round: review.round },
        createdAt: input.at,
      });
      outcome.enteredReview = true;
    }
    if (review.withheldReason === null && reporters >= threshold) {
      await this.withholdByReports(tx, track, review.round, reporters, threshold, input.at);
      outcome.withheld = true;
    }
    return outcome;
  }

  /**
   * An admin's PATCH of the two mutable fields. flag_for_review true withholds the track at once (a
   * manual_review record when it was not already withheld by an admin); false approves it: the review
   * round closes, the withholding ends and later reports count afresh.
   */
  async applyAdminFlags(
    stationTrackId: string,
    changes: AdminFlagChanges,
    actor: { userId: string | null; label: string | null },
    at: Date,
    /** Runs in the same transaction once the outcome is known (the webhooks' outbox records flag_raised in it). */
    onOutcome: (tx: DbOrTx, outcome: AdminFlagOutcome) => Promise<void>,
  ): Promise<AdminFlagOutcome | null> {
    return this.db.transaction(async (tx) => {
      const before = await this.lockTrack(tx, stationTrackId);
      if (!before) return null;
      const [row] = await tx.update(registryTracks).set(changes).where(eq(registryTracks.stationTrackId, stationTrackId)).returning();
      const outcome: AdminFlagOutcome = { row, enteredReview: false, raised: null, approved: false };
      if (changes.flagForReview === undefined) return outcome;
      const review = await this.openReview(tx, stationTrackId);
      if (changes.flagForReview) {
        outcome.enteredReview = !before.flagForReview;
        if (review.withheldReason !== 'admin_flag') {
          await tx
            .update(safetyReviews)
            .set({ withheldReason: 'admin_flag', withheldAt: at, updatedAt: at })
            .where(eq(safetyReviews.stationTrackId, stationTrackId));
          [outcome.raised] = await tx
            .insert(safetyFlags)
            .values({
              stationTrackId,
              generationId: before.generationId,
              lyricId: before.lyricId,
              flagType: 'manual_review',
              safetyScore: before.safetyScore,
              detail: { source: 'registry_patch', requested_by: actor.label, review_round: review.round },
              createdBy: actor.userId,
              createdAt: at,
            })
            .returning();
        }
      } else if (before.flagForReview || review.withheldReason !== null) {
        await tx
          .update(safetyReviews)
          .set({ round: review.round + 1, withheldReason: null, withheldAt: null, approvedAt: at, approvedBy: actor.label, updatedAt: at })
          .where(eq(safetyReviews.stationTrackId, stationTrackId));
        outcome.approved = true;
      }
      await onOutcome(tx, outcome);
      return outcome;
    });
  }

  /**
   * After report_threshold was lowered: withholds the tracks in the queue whose open round already has that
   * many distinct reporters. Each is re-checked under its lock. Returns the ids withheld.
   */
  async withholdReaching(threshold: number, at: Date): Promise<string[]> {
    const candidates = await this.db
      .select({ id: safetyReviews.stationTrackId })
      .from(safetyReviews)
      .innerJoin(registryTracks, eq(registryTracks.stationTrackId, safetyReviews.stationTrackId))
      .where(
        and(
          eq(registryTracks.flagForReview, true),
          sql`${safetyReviews.withheldReason} is null`,
          sql`(select count(*) from ${safetyReports} where ${safetyReports.stationTrackId} = ${safetyReviews.stationTrackId} and ${safetyReports.round} = ${safetyReviews.round}) >= ${threshold}`,
        ),
      );
    const withheld: string[] = [];
    for (const { id } of candidates) {
      const done = await this.db.transaction(async (tx) => {
        const track = await this.lockTrack(tx, id);
        const review = track ? await this.openReview(tx, id) : null;
        if (!track || !review || !track.flagForReview || review.withheldReason !== null) return false;
        const reporters = await this.reportersInRound(tx, id, review.round);
        if (reporters < threshold) return false;
        await this.withholdByReports(tx, track, review.round, reporters, threshold, at);
        return true;
      });
      if (done) withheld.push(id);
    }
    return withheld;
  }

  /** The review state of each given track (tracks never flagged included), in one query. */
  async states(stationTrackIds: string[]): Promise<Map<string, ReviewState>> {
    if (stationTrackIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        stationTrackId: registryTracks.stationTrackId,
        inReview: registryTracks.flagForReview,
        round: safetyReviews.round,
        withheldReason: safetyReviews.withheldReason,
        withheldAt: safetyReviews.withheldAt,
        approvedAt: safetyReviews.approvedAt,
        approvedBy: safetyReviews.approvedBy,
        listenerReports: sql<
          number | string
        >`(select count(*) from ${safetyReports} where ${safetyReports.stationTrackId} = ${registryTracks.stationTrackId} and ${safetyReports.round} = coalesce(${safetyReviews.round}, 1))`,
        filtered: safetyFilteredSql(),
      })
      .from(registryTracks)
      .leftJoin(safetyReviews, eq(safetyReviews.stationTrackId, registryTracks.stationTrackId))
      .where(inArray(registryTracks.stationTrackId, stationTrackIds));
    return new Map(
      rows.map((r) => [
        r.stationTrackId,
        {
          stationTrackId: r.stationTrackId,
          inReview: r.inReview,
          round: r.round ?? 1,
          // The filter's verdict is final; an admin's flag or the reports end with an approval.
          withheldReason: r.filtered ? 'safety_filter' : (r.withheldReason ?? null),
          withheldAt: r.filtered ? null : (r.withheldAt ?? null),
          listenerReports: Number(r.listenerReports),
          approvedAt: r.approvedAt ?? null,
          approvedBy: r.approvedBy ?? null,
        },
      ]),
    );
  }

  async state(stationTrackId: string): Promise<ReviewState | null> {
    return (await this.states([stationTrackId])).get(stationTrackId) ?? null;
  }

  /** Reports of one review round, newest first. */
  async reports(stationTrackId: string, round: number, limit: number): Promise<ReportRow[]> {
    return this.db
      .select()
      .from(safetyReports)
      .where(and(eq(safetyReports.stationTrackId, stationTrackId), eq(safetyReports.round, round)))
      .orderBy(desc(safetyReports.createdAt))
      .limit(limit);
  }
}
