/** Reads an NDJSON response body line by line, with an idle limit (the service sends heartbeats). */

export class IdleStreamError extends Error {
  constructor(readonly idleMs: number) {
    super(`no data for ${idleMs} ms`);
    this.name = 'IdleStreamError';
  }
}

/**
 * Yields each line of `body` parsed as JSON, skipping heartbeat lines. When nothing arrives for
 * `idleMs`, `onIdle` is called (the caller aborts the request, which ends the iteration with its error).
 */
export async function* ndjsonLines<Line extends { type: string }>(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  onIdle: (error: IdleStreamError) => void,
): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8');
  let buffered = '';
  // The idle clock runs only while waiting for the service, not while the caller handles a line.
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => onIdle(new IdleStreamError(idleMs)), idleMs);
  };
  const disarm = () => clearTimeout(idle);
  const parse = (text: string): Line | null => {
    if (text.trim() === '') return null;
    const line = JSON.parse(text) as Line;
    return line.type === 'heartbeat' ? null : line;
  };
  arm();
  try {
    for await (const chunk of body) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (!line) continue;
        disarm();
        yield line;
      }
      arm();
    }
    const last = parse(buffered + decoder.decode());
    disarm();
    if (last) yield last;
  } finally {
    disarm();
  }
}
