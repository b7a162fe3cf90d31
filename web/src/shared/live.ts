/**
 * The station's WebSocket channels (/station/ws/<channel>?token=<JWT>), reconnecting by themselves with
 * exponential backoff and full jitter (1 s doubling to 30 s) as station-api.md asks, and telling the page
 * what they are doing so it can say so. Close 4401 (login revoked or token expired) renews the token
 * before the next attempt; 4403 (scope lost) stops.
 */
import { useEffect, useRef, useState } from 'react';

export type LinkStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export interface LinkState {
  status: LinkStatus;
  /** Failed attempts in a row. */
  attempt: number;
  /** Seconds until the next attempt while reconnecting. */
  retryInSec: number | null;
}

export interface ChannelOptions<M> {
  channel: 'now-playing' | 'listeners' | 'generation-progress' | 'training-progress';
  token: () => Promise<string | null>;
  renew: () => Promise<unknown>;
  onMessage: (message: M) => void;
  onState?: (state: LinkState) => void;
}

const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
const REVOKED = 4401;
const SCOPE_LOST = 4403;

export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export function channelUrl(channel: string, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/station/ws/${channel}?token=${encodeURIComponent(token)}`;
}

/** Opens the channel; the returned function closes it for good. */
export function openChannel<M>(options: ChannelOptions<M>): () => void {
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let stopped = false;
  const report = (status: LinkStatus, retryInSec: number | null = null) => options.onState?.({ status, attempt, retryInSec });

  const schedule = () => {
    if (stopped) return;
    const delay = backoffDelay(attempt);
    attempt += 1;
    report('reconnecting', Math.ceil(delay / 1000));
    timer = setTimeout(connect, delay);
  };

  async function connect() {
    if (stopped) return;
    report(attempt === 0 ? 'connecting' : 'reconnecting', 0);
    const token = await options.token().catch(() => null);
    if (stopped) return;
    if (!token) return schedule();
    const ws = new WebSocket(channelUrl(options.channel, token));
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      report('open');
    };
    ws.onmessage = (event) => {
      try {
        options.onMessage(JSON.parse(String(event.data)) as M);
      } catch {
        // a malformed frame is dropped; the next one will do
      }
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      if (stopped) return;
      if (event.code === SCOPE_LOST) {
        stopped = true;
        report('stopped');
        return;
      }
      // A refused upgrade (401) looks like an abnormal close (1006) to a browser: renew then too.
      if (event.code === REVOKED || event.code === 1006) void options.renew().catch(() => undefined);
      schedule();
    };
  }

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    socket?.close(1000);
    socket = null;
  };
}

/** React: a channel open while the component is mounted and `enabled`; the handler may change freely. */
export function useChannel<M>(
  channel: ChannelOptions<M>['channel'],
  source: { token: () => Promise<string | null>; renew: () => Promise<unknown> },
  onMessage: (message: M) => void,
  enabled = true,
): LinkState {
  const [state, setState] = useState<LinkState>({ status: 'connecting', attempt: 0, retryInSec: null });
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!enabled) return undefined;
    return openChannel<M>({
      channel,
      token: () => source.token(),
      renew: () => source.renew(),
      onMessage: (message) => handler.current(message),
      onState: setState,
    });
  }, [channel, source, enabled]);
  return state;
}

export function describeLink(state: LinkState, what: string): string | null {
  if (state.status === 'open') return null;
  if (state.status === 'stopped') return `${what}: access lost`;
  if (state.status === 'connecting') return `${what}: connecting…`;
  return state.retryInSec ? `${what}: connection lost, reconnecting in ${state.retryInSec} s (attempt ${state.attempt})` : `${what}: reconnecting…`;
}
