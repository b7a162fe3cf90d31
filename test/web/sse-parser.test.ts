/**
 * The pages' Server-Sent Events parser (web/src/shared/sse-parser.ts), which reads GET /v1/analytics/stream through fetch
 * (EventSource cannot send the Authorization header): frames split across chunks, ids kept, comments (the
 * heartbeat) dropped, multi-line data joined, CRLF line ends.
 */
import { describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from '../../web/src/shared/sse-parser.js';

describe('SseParser', () => {
  it('splits a stream into frames however the chunks fall', () => {
    const stream =
      'id: 7\nevent: snapshot\ndata: {"counters":{"plays":3}}\n\n: heartbeat\n\nid: 8\r\nevent: play\r\ndata: {"artist_id":"a",\r\ndata: "counters":{"plays":4}}\r\n\r\nevent: listeners\ndata: 12\n\n';
    for (const size of [1, 3, 17, stream.length]) {
      const frames: SseFrame[] = [];
      const parser = new SseParser();
      for (let i = 0; i < stream.length; i += size) parser.push(stream.slice(i, i + size), (frame) => frames.push(frame));
      expect(frames, `chunks of ${size}`).toEqual([
        { event: 'snapshot', data: '{"counters":{"plays":3}}', id: '7' },
        { event: 'play', data: '{"artist_id":"a",\n"counters":{"plays":4}}', id: '8' },
        { event: 'listeners', data: '12', id: '8' },
      ]);
    }
  });
});
