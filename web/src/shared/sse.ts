/**
 * Server-Sent Events read with fetch rather than EventSource, which cannot send the Authorization header the
 * platform asks for. Reconnects by itself with the same backoff as the WebSocket channels (1 s doubling to 30 s,
 * full jitter) and resumes with Last-Event-ID; a 401 renews the login first; a 403 (the credential lacks the
 * scope) stops for good and says so.
 */
import { useEffect, useRef, useState } from 'react';
import { backoffDelay } from './live';
import { SseParser, type SseFrame } from './sse-parser';

export type { SseFrame };

export type SseStatus = 'connecting' | 'open' | 'reconnecting' | 'forbidden';

export function openEventStream(
  path: string,
  session: { token(): Promise<string | null>; renew(): Promise<unknown> },
  onFrame: (frame: SseFrame) => void,
  onStatus: (status: SseStatus) => void,
): () => void {
  let stopped = false;
  let attempt = 0;
  let lastId: string | null = null;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const retry = () => {
    if (stopped) return;
    onStatus('reconnecting');
    timer = setTimeout(() => void connect(), backoffDelay(attempt++));
  };

  async function connect() {
    if (stopped) return;
    controller = new AbortController();
    try {
      const token = await session.token();
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (lastId) headers['last-event-id'] = lastId;
      const response = await fetch(path, { headers, signal: controller.signal, credentials: 'same-origin' });
      if (response.status === 403) {
        stopped = true;
        onStatus('forbidden');
        return;
      }
      if (response.status === 401) {
        await session.renew();
        return retry();
      }
      if (!response.ok || !response.body) return retry();
      attempt = 0;
      onStatus('open');
      const parser = new SseParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value, (frame) => {
          if (frame.id) lastId = frame.id;
          onFrame(frame);
        });
      }
      retry();
    } catch {
      if (!stopped) retry();
    }
  }

  onStatus('connecting');
  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}

/** React: an event stream open while mounted; the handler may change freely. */
export function useEventStream(
  path: string,
  session: { token(): Promise<string | null>; renew(): Promise<unknown> },
  onFrame: (frame: SseFrame) => void,
): SseStatus {
  const [status, setStatus] = useState<SseStatus>('connecting');
  const handler = useRef(onFrame);
  handler.current = onFrame;
  useEffect(() => openEventStream(path, session, (frame) => handler.current(frame), setStatus), [path, session]);
  return status;
}
