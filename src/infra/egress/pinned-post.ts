/**
 * One HTTP(S) POST to a user-supplied URL under the egress policy: the host is resolved and checked once, and
 * the connection goes to those checked addresses only (the socket's lookup answers them), while the Host header,
 * TLS SNI and certificate check still name the host. Redirects are never followed. Outcomes are coarse on
 * purpose: what a URL's owner may see must not turn the server into a probe of networks they cannot reach.
 *
 * node:http rather than fetch: fetch (undici) takes a pinned lookup only through an undici Agent, and undici
 * is not a dependency of ours; http.request's `lookup` option does the same with what Node ships.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, TcpNetConnectOpts } from 'node:net';
import type { Destination, EgressPolicy, ResolvedAddress } from './egress-policy.js';

export type EgressOutcome =
  | { kind: 'response'; status: number }
  /** The policy admits no address of the host: nothing was sent. */
  | { kind: 'refused_by_policy' }
  /** DNS failure, connection refused or reset, TLS failure: the details stay here. */
  | { kind: 'connection_failed' }
  | { kind: 'timeout' }
  /** Cut short by the caller's own signal (shutdown): says nothing about the receiver. */
  | { kind: 'interrupted' };

export interface PinnedPostOptions {
  body: string;
  headers: Record<string, string>;
  /** Covers everything: resolution, connection and the answer's status line. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

export async function postPinned(policy: EgressPolicy, url: URL, options: PinnedPostOptions): Promise<EgressOutcome> {
  if (!isHttpUrl(url)) return { kind: 'refused_by_policy' };
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout.signal, options.signal]) : timeout.signal;
  const abortedKind = (): EgressOutcome => (options.signal?.aborted && !timeout.signal.aborted ? { kind: 'interrupted' } : { kind: 'timeout' });
  try {
    const destination = await untilAborted(policy.destination(url.hostname), signal);
    if (destination === null) return abortedKind();
    if (!destination.allowed) return destination.reason === 'refused' ? { kind: 'refused_by_policy' } : { kind: 'connection_failed' };
    const status = await send(url, destination, options, signal);
    if (status !== null) return { kind: 'response', status };
    return signal.aborted ? abortedKind() : { kind: 'connection_failed' };
  } finally {
    clearTimeout(timer);
  }
}

/** The status of the answer, or null when there was none (the error itself is dropped: see the header). */
function send(url: URL, destination: Extract<Destination, { allowed: true }>, options: PinnedPostOptions, signal: AbortSignal): Promise<number | null> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  // autoSelectFamily is net.connect's, passed through by http.request (@types/node 20 leaves it out here).
  const requestOptions: RequestOptions & Pick<TcpNetConnectOpts, 'autoSelectFamily'> = {
    protocol: url.protocol,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
    // A connection of its own: a pooled socket could belong to an earlier, differently resolved attempt.
    agent: false,
    lookup: pinnedLookup(destination.addresses),
    // Tries each checked address in turn (IPv6 and IPv4 interleaved) until one connects.
    autoSelectFamily: true,
    signal,
  };
  return new Promise((resolve) => {
    const req = request(requestOptions, (response: IncomingMessage) => {
      // Only the status matters; the body is not read.
      response.destroy();
      resolve(response.statusCode ?? null);
    });
    req.on('error', () => resolve(null));
    req.end(options.body);
  });
}

/** A lookup that answers the checked addresses whatever name it is asked for: no second resolution happens. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, addresses[0].address, addresses[0].family);
  }) as LookupFunction;
}

/** The work's result, or null as soon as `signal` aborts (DNS lookups cannot be cancelled, only abandoned). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
