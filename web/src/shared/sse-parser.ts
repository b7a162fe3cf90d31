/**
 * A text/event-stream split into frames (comments and unknown fields dropped), fed chunk by chunk as fetch
 * delivers them. Kept apart from sse.ts, with no imports, so tests can run it outside a browser.
 */
export interface SseFrame {
  event: string;
  data: string;
  id: string | null;
}

export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;

  push(chunk: string, emit: (frame: SseFrame) => void): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR at the very end may be the first half of a CRLF split between chunks: wait for the next one.
      if (newline === this.buffer.length - 1 && this.buffer.endsWith('\r')) break;
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (this.data.length) emit({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'id') this.id = value;
    }
  }
}
