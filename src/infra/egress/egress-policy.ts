/**
 * Where the server may send user-supplied URLs (webhooks, training's notify_webhook): the operator's allow-list
 * (allow-list.ts) applied to the addresses a host resolves to. Checked twice: when the URL is registered, to
 * refuse early what is provably refused, and at every delivery against the addresses resolved then, one of which
 * the connection is pinned to (pinned-post.ts), so a name cannot pass the check and then resolve elsewhere.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { addRange, classify, inList } from './address-ranges.js';
import { normalizeHost, type AllowList } from './allow-list.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The resolver port: every address a name resolves to, in the order the system prefers them. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Where one delivery goes: the checked addresses to connect to (in order), or why it goes nowhere. */
export type Destination = { allowed: true; addresses: ResolvedAddress[] } | { allowed: false; reason: 'refused' | 'unresolved' };

/** At registration: `unresolved` names are accepted (see screen()). */
export type Screening = 'allowed' | 'refused' | 'unresolved';

/** How long registration waits for DNS before accepting the name as unresolved. */
const SCREEN_RESOLVE_MS = 3_000;

export class EgressPolicy {
  private readonly cidrs = new BlockList();

  constructor(
    private readonly list: AllowList,
    private readonly resolveHost: HostResolver = systemResolver,
  ) {
    for (const { address, prefix } of list.cidrs) addRange(this.cidrs, address, prefix);
  }

  /** May a connection for `host` go to `address`? */
  admits(host: string, address: string): boolean {
    if (this.list.any || this.vouchedFor(normalizeHost(host))) return true;
    if (inList(this.cidrs, address)) return true;
    const kind = classify(address);
    return (kind === 'external' || kind === 'loopback' || kind === 'private') && this.list.keywords.includes(kind);
  }

  /**
   * The registration check. Refuses only what it can prove: a literal address outside the policy, or a name
   * whose every address is. A name that does not resolve (yet, or from here) is accepted, as Gitea does: the
   * check at delivery is the one that protects, and refusing would tie registration to DNS being up.
   */
  async screen(hostname: string): Promise<Screening> {
    const host = normalizeHost(hostname);
    if (isIP(host) === 0 && (this.list.any || this.vouchedFor(host))) return 'allowed';
    const destination = await this.destination(host, SCREEN_RESOLVE_MS);
    return destination.allowed ? 'allowed' : destination.reason;
  }

  /**
   * The delivery check: resolves the host now and answers the addresses the policy admits, in resolver order.
   * Refused addresses are dropped, never connected to; the caller connects to these addresses only.
   */
  async destination(hostname: string, resolveTimeoutMs?: number): Promise<Destination> {
    const host = normalizeHost(hostname);
    const literal = isIP(host);
    if (literal !== 0) {
      return this.admits(host, host) ? { allowed: true, addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] } : { allowed: false, reason: 'refused' };
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await withTimeout(this.resolveHost(host), resolveTimeoutMs);
    } catch {
      return { allowed: false, reason: 'unresolved' };
    }
    if (addresses.length === 0) return { allowed: false, reason: 'unresolved' };
    const admitted = addresses.filter(({ address }) => isIP(address) !== 0 && this.admits(host, address));
    return admitted.length > 0 ? { allowed: true, addresses: admitted } : { allowed: false, reason: 'refused' };
  }

  /** A host name the operator listed (exactly, or under a `*.` wildcard): admitted whatever it resolves to. */
  private vouchedFor(host: string): boolean {
    if (isIP(host) !== 0) return false;
    return this.list.hosts.includes(host) || this.list.hostSuffixes.some((suffix) => host.endsWith(`.${suffix}`));
  }
}

function withTimeout<T>(work: Promise<T>, ms: number | undefined): Promise<T> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}

/** What a client is told when a URL it gave is refused at registration (the addresses themselves are not shown). */
export function refusedDestinationDetail(field: string): string {
  return (
    `${field} leads only to addresses that STATION_WEBHOOK_ALLOWED_HOSTS does not allow ` +
    '(by default deliveries go to public addresses only: not loopback, private, link-local or other special-purpose ranges)'
  );
}
