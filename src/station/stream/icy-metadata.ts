/**
 * ICY (SHOUTcast/Icecast) in-band metadata, for players that send `Icy-MetaData: 1` (VLC, foobar2000, most
 * radio apps; browsers do not). After every `metaint` audio bytes comes one length byte N and N × 16 bytes of
 * `StreamTitle='...';` padded with zeros; N = 0 when the title has not changed since the last block. The title
 * is read when the block is due, so it changes in the byte stream near where the new track's frames are.
 */
import type { ListenerSink } from './broadcaster.js';

export const ICY_METAINT = 16_000;
const MAX_BLOCK = 255 * 16;
const UNCHANGED = Buffer.from([0]);

/** One metadata block: length byte, `StreamTitle='…';`, zero padding to a multiple of 16. */
export function icyMetadataBlock(title: string): Buffer {
  let text = Buffer.from(`StreamTitle='${title.replace(/'/g, '’')}';`, 'utf8');
  if (text.length > MAX_BLOCK) text = Buffer.concat([text.subarray(0, MAX_BLOCK - 2), Buffer.from("';")]);
  const blocks = Math.ceil(text.length / 16);
  const block = Buffer.alloc(1 + blocks * 16);
  block[0] = blocks;
  text.copy(block, 1);
  return block;
}

/** A listener sink that interleaves metadata into what the broadcaster writes, then passes it on. */
export class IcyMetadataSink implements ListenerSink {
  private untilMetadata: number;
  private lastTitle: string | null = null;

  constructor(
    private readonly out: ListenerSink,
    private readonly title: () => string,
    readonly metaint = ICY_METAINT,
  ) {
    this.untilMetadata = metaint;
  }

  get destroyed(): boolean {
    return this.out.destroyed;
  }

  get writableLength(): number | undefined {
    return this.out.writableLength;
  }

  write(chunk: Buffer): boolean {
    let drained = true;
    let at = 0;
    while (chunk.length - at >= this.untilMetadata) {
      drained = this.out.write(chunk.subarray(at, at + this.untilMetadata)) && drained;
      drained = this.out.write(this.nextBlock()) && drained;
      at += this.untilMetadata;
      this.untilMetadata = this.metaint;
    }
    if (at < chunk.length) {
      drained = this.out.write(at === 0 ? chunk : chunk.subarray(at)) && drained;
      this.untilMetadata -= chunk.length - at;
    }
    return drained;
  }

  end(): void {
    this.out.end();
  }

  destroy(error?: Error): void {
    if (this.out.destroy) this.out.destroy(error);
    else this.out.end();
  }

  once(event: 'close' | 'error', listener: (...args: unknown[]) => void): this {
    this.out.once(event, listener);
    return this;
  }

  private nextBlock(): Buffer {
    const title = this.title();
    if (title === this.lastTitle) return UNCHANGED;
    this.lastTitle = title;
    return icyMetadataBlock(title);
  }
}
