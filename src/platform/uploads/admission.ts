/**
 * Which uploads this instance takes in at once: a user may have a few in flight (being received, spooled
 * and checked), the instance a few more, and a user's uploads in flight may not reserve more spool space
 * than their share. An upload reserves what its Content-Length declares (the file limit when it declares
 * nothing), so a refusal comes before a byte is written. Refusals are 429 RATE_LIMITED with Retry-After.
 */
import { Errors } from '../../errors.js';

export interface AdmissionLimits {
  perUser: number;
  perInstance: number;
  /** Bytes a user's uploads in flight may reserve together. */
  spoolBytesPerUser: number;
}

/** An upload in flight ends within seconds to minutes; a refused caller tries again a little later. */
const RETRY_AFTER_SEC = 10;

export class UploadAdmission {
  private inFlight = 0;
  private readonly byUser = new Map<string, { uploads: number; bytes: number }>();

  constructor(readonly limits: AdmissionLimits) {}

  /** Admits an upload or throws 429; the returned release may be called any number of times. */
  admit(userId: string, bytes: number): () => void {
    const mine = this.byUser.get(userId) ?? { uploads: 0, bytes: 0 };
    if (mine.uploads >= this.limits.perUser) throw Errors.rateLimited(RETRY_AFTER_SEC, `You have ${mine.uploads} uploads in progress; wait for one to finish`);
    if (mine.bytes + bytes > this.limits.spoolBytesPerUser) {
      throw Errors.rateLimited(
        RETRY_AFTER_SEC,
        `Your uploads in progress would take more than ${Math.round(this.limits.spoolBytesPerUser / 1048576)} MB; wait for one to finish`,
      );
    }
    if (this.inFlight >= this.limits.perInstance) throw Errors.rateLimited(RETRY_AFTER_SEC, 'The server is busy with other uploads');
    this.inFlight++;
    mine.uploads++;
    mine.bytes += bytes;
    this.byUser.set(userId, mine);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      mine.uploads--;
      mine.bytes -= bytes;
      if (mine.uploads === 0) this.byUser.delete(userId);
    };
  }

  /** Uploads in flight on this instance. */
  get size(): number {
    return this.inFlight;
  }
}
