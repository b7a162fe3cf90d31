/**
 * How many long-lived connections one credential (a login session or an API key) may hold at once, counted
 * over every instance: radio streams (a stream ticket names its credential), WebSockets and analytics SSE
 * streams. Each open connection holds a lease in the shared LeaseStore until it closes; a crashed instance's
 * leases expire with the lease time. The connection past the limit is refused with 429 and Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { Errors } from '../errors.js';
import type { LeaseStore } from '../infra/leases/lease-store.js';

export type ConnectionKind = 'stream' | 'websocket' | 'sse';

/** STATION_MAX_STREAMS_PER_CREDENTIAL, STATION_MAX_WEBSOCKETS_PER_CREDENTIAL, STATION_MAX_SSE_PER_CREDENTIAL. */
export type ConnectionLimitSettings = Record<ConnectionKind, number>;

const NAMES: Record<ConnectionKind, string> = { stream: 'radio streams', websocket: 'WebSocket connections', sse: 'event streams' };

/** Retry-After of a refused connection: by then a slot held by a crashed instance has expired. */
export const CONNECTION_RETRY_AFTER_SEC = 30;

export class ConnectionLimits {
  constructor(
    private readonly leases: LeaseStore,
    private readonly limits: ConnectionLimitSettings,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * Takes one of the credential's `kind` slots, or throws RATE_LIMITED (429, Retry-After) when all are taken.
   * Returns the function that gives the slot back (call it when the connection closes; calling it again is harmless).
   */
  async admit(kind: ConnectionKind, credentialId: string): Promise<() => void> {
    const group = `connections:${kind}:${credentialId}`;
    const lease = randomUUID();
    const max = this.limits[kind];
    if (!(await this.leases.acquire(group, lease, max))) {
      throw Errors.rateLimited(CONNECTION_RETRY_AFTER_SEC, `At most ${max} concurrent ${NAMES[kind]} per credential`);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.leases.release(group, lease).catch(this.onError);
    };
  }
}
