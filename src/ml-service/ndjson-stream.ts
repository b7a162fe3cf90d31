/**
 * A streamed NDJSON answer: one JSON object per line, heartbeat lines while nothing else is written (so
 * proxies and the client's idle timer see a live connection), and a signal when the caller went away
 * before the answer ended.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { HEARTBEAT_MS, NDJSON } from '../engine/remote/protocol.js';

export class NdjsonStream<Line extends { type: string }> {
  private readonly body = new PassThrough();
  private readonly heartbeat: NodeJS.Timeout;
  private ended = false;
  private abortHandlers: (() => void)[] = [];
  /** True once the caller closed the connection before the last line. */
  aborted = false;

  constructor(
    private readonly reply: FastifyReply,
    heartbeatMs = HEARTBEAT_MS,
  ) {
    this.heartbeat = setInterval(() => this.write({ type: 'heartbeat' } as Line), heartbeatMs);
    reply.raw.on('close', () => {
      if (this.ended) return;
      this.aborted = true;
      this.finish();
      for (const handler of this.abortHandlers.splice(0)) handler();
    });
  }

  /** Starts the response (status 200); lines written before this are buffered. */
  send(): void {
    void this.reply.status(200).header('content-type', `${NDJSON}; charset=utf-8`).header('cache-control', 'no-store').send(this.body);
  }

  write(line: Line): void {
    if (!this.ended) this.body.write(`${JSON.stringify(line)}\n`);
  }

  /** Writes the last line and ends the response. */
  end(line: Line): void {
    this.write(line);
    this.finish();
  }

  onAbort(handler: () => void): void {
    if (this.aborted) handler();
    else this.abortHandlers.push(handler);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    this.body.end();
  }
}
