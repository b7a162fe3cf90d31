/**
 * Whose flag_inappropriate report counts toward withholding an AI track (issue #16: three throwaway accounts
 * took any AI track off air). A report counts only from a listener who held a stream ticket or a listening
 * session (an open stream) while the track was on air; at most one counted report per client address is the
 * safety review's own rule (a unique index of safety_reports). A report that does not count is still stored
 * as feedback; it neither enters the track in the review queue nor counts toward report_threshold.
 *
 * The checks compose with `allOf`: radio/module.ts builds the station's one eligibility from them.
 */
import type { EmailVerifiedCheck } from '../../auth/email-verification.js';
import type { Principal } from '../../auth/principal.js';
import { isDomainError } from '../../errors.js';
import type { PlaysRepository } from '../registry/plays.repository.js';
import { listenerKeyOf } from '../realtime/listener-presence.js';
import type { ListeningSessionsRepository } from './listening-sessions.repository.js';

export interface ReporterEligibility {
  /** True when `reporter`'s report of `stationTrackId` may count. */
  eligible(reporter: Principal, stationTrackId: string): Promise<boolean>;
}

/** Held a stream ticket or an open stream during one of the track's airings. */
export class HeardOnAir implements ReporterEligibility {
  constructor(
    private readonly plays: Pick<PlaysRepository, 'airings'>,
    private readonly sessions: Pick<ListeningSessionsRepository, 'heldDuring'>,
  ) {}

  async eligible(reporter: Principal, stationTrackId: string): Promise<boolean> {
    const airings = await this.plays.airings(stationTrackId);
    return this.sessions.heldDuring(listenerKeyOf(reporter), airings);
  }
}

/** A listener account whose e-mail address is verified (a throwaway sign-up's report never counts). */
export class VerifiedAddress implements ReporterEligibility {
  constructor(private readonly verified: EmailVerifiedCheck) {}

  async eligible(reporter: Principal): Promise<boolean> {
    if (reporter.userId === null) return false;
    try {
      await this.verified.assertEmailVerified(reporter.userId);
      return true;
    } catch (error) {
      if (isDomainError(error, 'EMAIL_UNVERIFIED')) return false;
      throw error;
    }
  }
}

/** Eligible when every check says so (checked in order; the first no ends it). */
export function allOf(...checks: ReporterEligibility[]): ReporterEligibility {
  return {
    async eligible(reporter, stationTrackId) {
      for (const check of checks) if (!(await check.eligible(reporter, stationTrackId))) return false;
      return true;
    },
  };
}
