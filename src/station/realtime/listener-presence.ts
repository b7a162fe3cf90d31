/**
 * Who is listening, counted once per listener however many connections they hold and on however many
 * instances: a listener is an account (or an API key), and each of its radio streams and now-playing or
 * listeners WebSockets `enter`s it here. Every instance keeps its own listeners as members
 * `<listener>@<instance>` of one shared LeaseStore group, so the station's count is the number of distinct
 * listeners in that group (Redis: a crashed instance's members expire with their lease).
 */
import type { Principal } from '../../auth/principal.js';
import { DISTINCT_SEPARATOR, type LeaseStore } from '../../infra/leases/lease-store.js';

export const LISTENERS_GROUP = 'station-listeners';

/** One identity per listener: their account, else the API key, else the credential. */
export function listenerKeyOf(principal: Pick<Principal, 'userId' | 'apiKeyId' | 'credentialId'>): string {
  if (principal.userId) return `user:${principal.userId}`;
  if (principal.apiKeyId) return `api_key:${principal.apiKeyId}`;
  return `credential:${principal.credentialId}`;
}

export class ListenerPresence {
  /** This instance's listeners and how many connections each holds here. */
  private readonly local = new Map<string, number>();
  private total = 0;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly instanceId: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** One more connection of `listener` on this instance; returns the function to call when it closes. */
  enter(listener: string): () => void {
    const connections = (this.local.get(listener) ?? 0) + 1;
    this.local.set(listener, connections);
    if (connections === 1) this.write(this.store.acquire(LISTENERS_GROUP, this.member(listener), Infinity));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.local.get(listener) ?? 1) - 1;
      if (remaining > 0) {
        this.local.set(listener, remaining);
        return;
      }
      this.local.delete(listener);
      this.write(this.store.release(LISTENERS_GROUP, this.member(listener)));
    };
  }

  /** Distinct listeners of the whole station as last read (every change here and every `refresh` reads it again). */
  count(): number {
    return this.total;
  }

  /** Distinct listeners on this instance. */
  localCount(): number {
    return this.local.size;
  }

  /** Reads the station-wide count again; concurrent calls share one read (and one more after it). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          this.total = await this.store.countDistinct(LISTENERS_GROUP);
        } while (this.refreshAgain);
      } catch (error) {
        this.onError(error);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** Leaves every listener of this instance (at shutdown, rather than let the others wait for the lease to expire). */
  async leaveAll(): Promise<void> {
    const listeners = [...this.local.keys()];
    this.local.clear();
    await Promise.all(listeners.map((listener) => this.store.release(LISTENERS_GROUP, this.member(listener)).catch(this.onError)));
    await this.refresh();
  }

  private member(listener: string): string {
    return `${listener}${DISTINCT_SEPARATOR}${this.instanceId}`;
  }

  private write(change: Promise<unknown>): void {
    void change.then(() => this.refresh(), this.onError);
  }
}
