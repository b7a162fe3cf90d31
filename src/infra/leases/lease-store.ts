/**
 * Leases on shared groups: "this connection is open" and "this listener is here", counted by every instance.
 *
 * A group is a set of members (a credential's open streams, the station's listeners). `acquire` adds a member
 * only while the group holds fewer than `max`; `release` removes it when the connection closes. The store
 * keeps renewing the members it added, so a member lives exactly as long as its holder: an instance that
 * crashes stops renewing and its members expire within the lease time (Redis), instead of holding a slot for
 * good. In-process without Redis (a crashed process takes its members with it); Redis with REDIS_URL.
 */
export interface LeaseStore {
  /**
   * Adds `member` to `group` unless the group already holds `max` live members (or the member itself, which is
   * then kept). True when the member is in the group afterwards.
   */
  acquire(group: string, member: string, max: number): Promise<boolean>;
  /** Removes `member` from `group` (nothing when absent) and stops renewing it. */
  release(group: string, member: string): Promise<void>;
  /** Live members of `group`. */
  count(group: string): Promise<number>;
  /**
   * Live members of `group` counted by what comes before their last `DISTINCT_SEPARATOR`: members
   * `user:1@instance-a` and `user:1@instance-b` count once.
   */
  countDistinct(group: string): Promise<number>;
  /** Stops renewing (members of a closed store expire; they are not released). */
  close(): Promise<void>;
}

export const DISTINCT_SEPARATOR = '@';

/** The part of a member that `countDistinct` counts. */
export function distinctPart(member: string): string {
  const at = member.lastIndexOf(DISTINCT_SEPARATOR);
  return at < 0 ? member : member.slice(0, at);
}
