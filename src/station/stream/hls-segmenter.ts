/**
 * HLS output: the stream's timeline (the broadcaster's encoded MP3 frames, `onChunk`) cut into segments of
 * FRAMES_PER_SEGMENT frames (~4 s), written to the BlobStore with a rolling media playlist, so that any
 * instance, or a CDN in front of the object store, serves the same segments (README.md next to this file).
 *
 * - Segments end on frame edges, at stream frame indices that are multiples of FRAMES_PER_SEGMENT (the first
 *   one after a start or a gap may be shorter), so a new leader continuing the same clock cuts where the
 *   last one would have.
 * - Each segment is packed audio (RFC 8216 §3.4): an ID3v2.4 tag with the PRIV
 *   `com.apple.streaming.transportStreamTimestamp` (the 90 kHz time of its first frame on the stream's clock)
 *   and TIT2, the title on air where it begins (the track changes as timed metadata: hls.js hands them to
 *   the player as ID3 samples), then whole MPEG audio frames.
 * - A segment is published once the continuous stream's send edge has passed its end (frames arrive up to
 *   relayAheadMs early), with #EXT-X-PROGRAM-DATE-TIME the wall time its first frame is heard on the
 *   continuous stream (send time + the lead), so both outputs tell the same time.
 * - The playlist lists the last `window` segments; a segment is deleted `keep` segments after it left it
 *   (a player that just read the playlist may still fetch it).
 * - Takeover: a new leader's segmenter (any new run) first reads the stored playlist and continues it: the
 *   media sequence goes on, the segments listed stay listed. Each segment carries its timeline and first
 *   frame in a comment line (`#STATION-FRAMES:`, ignored by players): on the same timeline the new leader's
 *   frames (from the segment the last leader had not written yet, which followers kept) join on without a
 *   mark; where the timeline restarts (a fresh start, or frames lost) the next segment gets
 *   #EXT-X-DISCONTINUITY. A playlist older than its own window is not continued (only numbered on).
 */
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import { SAMPLES_PER_FRAME } from './encoder.js';
import { FRAME_MS } from './fanout.js';
import { TIMELINE_RATE } from './track-reader.js';

/** 153 frames of 1152 samples at 44.1 kHz: 3.997 s. */
export const FRAMES_PER_SEGMENT = 153;
export const PLAYLIST_NAME = 'playlist.m3u8';
const PRIV_OWNER = 'com.apple.streaming.transportStreamTimestamp';
const TIMESTAMP_WRAP = 2n ** 33n;

/** What the segmenter takes from the broadcaster (a StreamChunk fits). */
export interface TimelineChunk {
  /** The broadcaster's run: frame indices count from its start (a new run may count from 0 again). */
  run?: string;
  /** The timeline (kept across takeovers): segments of one timeline join without a discontinuity. */
  timeline?: string;
  first: number;
  epoch: number;
  frames: Buffer[];
  title: string | null;
}

export interface HlsSegmenterOptions {
  blobs: Pick<BlobStore, 'put' | 'delete' | 'get'>;
  /** Blob key prefix of this rendition, e.g. `hls/live`. */
  prefix: string;
  framesPerSegment?: number;
  /** Segments listed in the playlist. */
  window?: number;
  /** Segments kept after they left the playlist, before they are deleted. */
  keep?: number;
  /** The continuous stream's lead: listeners hear frame i at epoch + i x FRAME_MS + leadMs. */
  leadMs?: number;
  now?: () => number;
  /** Sequence number of the first segment; by default the wall time in segments, so it grows across restarts and takeovers. */
  firstSequence?: number;
  onError?(error: unknown, context: string): void;
}

export interface HlsSegment {
  sequence: number;
  /** Stream frame index of its first frame. */
  firstFrame: number;
  frameCount: number;
  /** Wall time (ms) its first frame is heard. */
  heardAt: number;
  discontinuity: boolean;
  /** The timeline it belongs to, when known. */
  timeline?: string;
}

/** Duration of `frames` frames, seconds. */
export function segmentSeconds(frames: number): number {
  return (frames * SAMPLES_PER_FRAME) / TIMELINE_RATE;
}

/** The 90 kHz MPEG-2 timestamp of stream frame `index` (33 bits, wrapping). */
export function frameTimestamp90k(index: number): bigint {
  return BigInt(Math.round((index * SAMPLES_PER_FRAME * 90_000) / TIMELINE_RATE)) % TIMESTAMP_WRAP;
}

function synchsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

function id3Frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), synchsafe(body.length), Buffer.from([0, 0]), body]);
}

/** The ID3v2.4 tag opening a packed-audio segment: its timestamp, and the title on air (UTF-8) if any. */
export function segmentId3(timestamp: bigint, title: string | null): Buffer {
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(timestamp);
  const frames = [id3Frame('PRIV', Buffer.concat([Buffer.from(`${PRIV_OWNER}\0`, 'latin1'), stamp]))];
  if (title) frames.push(id3Frame('TIT2', Buffer.concat([Buffer.from([3]), Buffer.from(title.slice(0, 200), 'utf8')])));
  const body = Buffer.concat(frames);
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0]), synchsafe(body.length), body]);
}

const FRAMES_COMMENT = '#STATION-FRAMES:';

const KEPT_COMMENT = '#STATION-KEPT:';

/**
 * The segments of a playlist mediaPlaylist wrote (those without the frames comment are left out), and the
 * sequence numbers of segments that left it but are not deleted yet.
 */
export function parseMediaPlaylist(text: string): { segments: HlsSegment[]; kept: number[] } {
  const segments: HlsSegment[] = [];
  let kept: number[] = [];
  let discontinuity = false;
  let heardAt = Number.NaN;
  let frames: { timeline?: string; firstFrame: number; frameCount: number } | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith(KEPT_COMMENT)) kept = line.slice(KEPT_COMMENT.length).split(',').map(Number).filter(Number.isSafeInteger);
    else if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) heardAt = Date.parse(line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length));
    else if (line.startsWith(FRAMES_COMMENT)) {
      const [timeline, first, count] = line.slice(FRAMES_COMMENT.length).split(',');
      const firstFrame = Number(first);
      const frameCount = Number(count);
      frames = Number.isSafeInteger(firstFrame) && Number.isSafeInteger(frameCount) ? { timeline: timeline || undefined, firstFrame, frameCount } : null;
    } else if (/^[0-9]{1,15}\.mp3$/.test(line)) {
      if (frames && Number.isFinite(heardAt)) segments.push({ sequence: Number(line.slice(0, -4)), heardAt, discontinuity, ...frames });
      discontinuity = false;
      heardAt = Number.NaN;
      frames = null;
    }
  }
  return { segments, kept };
}

/** The media playlist text for `segments` (oldest first), segment URIs `<sequence>.mp3`. */
export function mediaPlaylist(segments: readonly HlsSegment[], framesPerSegment: number, kept: readonly number[] = []): string {
  const target = Math.max(1, Math.ceil(segmentSeconds(framesPerSegment) - 0.5));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${segments[0]?.sequence ?? 0}`];
  // Segments that left the playlist and are deleted a little later: whoever leads then deletes them.
  if (kept.length > 0) lines.push(`${KEPT_COMMENT}${kept.join(',')}`);
  for (const segment of segments) {
    if (segment.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    // A comment (not a tag: players ignore it): what a new leader needs to continue the playlist.
    lines.push(`${FRAMES_COMMENT}${segment.timeline ?? ''},${segment.firstFrame},${segment.frameCount}`);
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.heardAt).toISOString()}`);
    lines.push(`#EXTINF:${segmentSeconds(segment.frameCount).toFixed(3)},`);
    lines.push(`${segment.sequence}.mp3`);
  }
  return `${lines.join('\n')}\n`;
}

interface Building {
  /** The segmenter's generation when it began: a segment of a run that was reset is never written. */
  generation: number;
  firstFrame: number;
  frames: Buffer[];
  epoch: number;
  title: string | null;
  discontinuity: boolean;
  timeline?: string;
}

export class HlsSegmenter {
  readonly framesPerSegment: number;
  private readonly window: number;
  private readonly keep: number;
  private readonly leadMs: number;
  private readonly now: () => number;
  private building: Building | null = null;
  /** Complete segments waiting for the send edge to pass their end. */
  private readonly ready: Building[] = [];
  /** Stream index of the last frame taken (-1: none yet). */
  private lastFrame = -1;
  private pendingDiscontinuity = false;
  private run: string | undefined;
  private generation = 0;
  /** Segments written, oldest first (the playlist's window plus those awaiting deletion). */
  private readonly written: HlsSegment[] = [];
  /** Segments of an earlier run, deleted once the current playlist is full. */
  private readonly stale: HlsSegment[] = [];
  private nextSequence: number | null;
  private writing: Promise<void> = Promise.resolve();
  private pushing: Promise<void> = Promise.resolve();
  /** The last sequence number of a stored playlist that was not continued: numbering goes on past it. */
  private storedSequence = -1;

  constructor(private readonly options: HlsSegmenterOptions) {
    this.framesPerSegment = options.framesPerSegment ?? FRAMES_PER_SEGMENT;
    this.window = options.window ?? 6;
    this.keep = options.keep ?? 2;
    this.leadMs = options.leadMs ?? 0;
    this.now = options.now ?? Date.now;
    this.nextSequence = options.firstSequence ?? null;
  }

  /** Segments in the playlist now, oldest first. */
  get playlistSegments(): HlsSegment[] {
    return this.written.slice(-this.window);
  }

  /** Takes a chunk of consecutive frames; writes the segments that completed and came due. Chunks are taken in order. */
  push(chunk: TimelineChunk): Promise<void> {
    this.pushing = this.pushing.then(() => this.take(chunk)).catch((error: unknown) => this.options.onError?.(error, 'taking HLS frames'));
    return this.pushing;
  }

  private async take(chunk: TimelineChunk): Promise<void> {
    if (chunk.run !== undefined && chunk.run !== this.run) {
      if (this.run !== undefined) this.reset();
      this.run = chunk.run;
      await this.continueStored(chunk);
    }
    chunk.frames.forEach((frame, i) => this.addFrame(chunk.first + i, frame, chunk));
    await this.flush();
  }

  /**
   * A new run (this instance leads now): the playlist in the store, written by the last leader (or by this one
   * before it stepped down), is continued when it is recent: its segments stay listed and the numbering goes
   * on; on the same timeline the frames join on where its last segment ends, otherwise a discontinuity
   * starts the first new segment. An unreadable or old playlist is only numbered on.
   */
  private async continueStored(chunk: TimelineChunk): Promise<void> {
    const text = await this.options.blobs.get(`${this.options.prefix}/${PLAYLIST_NAME}`).catch(() => null);
    const { segments: stored, kept } = text ? parseMediaPlaylist(text.toString('utf8')) : { segments: [], kept: [] };
    const last = stored[stored.length - 1];
    if (!last) return;
    const endsHeardAt = last.heardAt + last.frameCount * FRAME_MS;
    if (this.now() - endsHeardAt > this.window * this.framesPerSegment * FRAME_MS) {
      this.storedSequence = last.sequence;
      return;
    }
    this.nextSequence = Math.max(this.nextSequence ?? 0, last.sequence + 1);
    const listed = new Set([...kept, ...stored.map((segment) => segment.sequence)]);
    // Kept segments go first, as if written here: they are deleted as the window rolls on.
    this.written.push(...kept.map((sequence) => ({ sequence, firstFrame: 0, frameCount: 0, heardAt: 0, discontinuity: false })), ...stored);
    // Listed again: never deleted as this instance's stale run (they leave with the rolling window instead).
    for (let i = this.stale.length - 1; i >= 0; i--) if (listed.has(this.stale[i].sequence)) this.stale.splice(i, 1);
    if (chunk.timeline !== undefined && last.timeline === chunk.timeline) this.lastFrame = last.firstFrame + last.frameCount - 1;
    else this.pendingDiscontinuity = true;
  }

  /** Writes every complete segment whose end the send edge has passed (in order, one write at a time). */
  flush(): Promise<void> {
    const now = this.now();
    while (this.ready.length > 0 && this.endsAt(this.ready[0]) <= now) {
      const building = this.ready.shift()!;
      this.writing = this.writing.then(() => this.write(building)).catch((error: unknown) => this.options.onError?.(error, 'writing an HLS segment'));
    }
    return this.writing;
  }

  /** Forgets the segments not yet written (the instance stopped leading); the next frames start a new one. */
  reset(): void {
    this.building = null;
    this.ready.length = 0;
    this.lastFrame = -1;
    this.pendingDiscontinuity = false;
    this.generation++;
    // A new run (this instance leads again, or its playout restarted): a fresh playlist, numbered on from the
    // wall clock (another leader may have written meanwhile). This instance's earlier segments are deleted
    // once the new playlist is full, so a player still holding the old one can finish what it fetches.
    this.stale.push(...this.written.splice(0));
    if (this.options.firstSequence === undefined) this.nextSequence = null;
  }

  /** Wall time at which the continuous stream sends the frame after the segment. */
  private endsAt(building: Building): number {
    return building.epoch + (building.firstFrame + building.frames.length) * FRAME_MS;
  }

  private addFrame(index: number, frame: Buffer, chunk: TimelineChunk): void {
    let building = this.building;
    const expected = building ? building.firstFrame + building.frames.length : this.lastFrame + 1;
    if (this.lastFrame >= 0 && index < expected) return; // already have it
    if (this.lastFrame >= 0 && index !== expected) {
      // A gap in the timeline (frames lost, or a new run): the partial segment is dropped, the next one marked.
      building = null;
      this.building = null;
      this.pendingDiscontinuity = this.written.length > 0 || this.ready.length > 0;
    }
    if (!building) {
      building = {
        generation: this.generation,
        firstFrame: index,
        frames: [],
        epoch: chunk.epoch,
        title: chunk.title,
        discontinuity: this.pendingDiscontinuity,
        timeline: chunk.timeline,
      };
      this.pendingDiscontinuity = false;
      this.building = building;
    }
    building.frames.push(frame);
    building.epoch = chunk.epoch;
    this.lastFrame = index;
    if ((index + 1) % this.framesPerSegment === 0) {
      this.ready.push(building);
      this.building = null;
    }
  }

  private async write(building: Building): Promise<void> {
    if (building.generation !== this.generation) return; // queued before a reset: its run is over
    const { blobs, prefix } = this.options;
    const last = Math.max(this.storedSequence, ...this.written.map((s) => s.sequence), ...this.stale.map((s) => s.sequence));
    const sequence = this.nextSequence ?? Math.max(last + 1, Math.floor(this.now() / (FRAME_MS * this.framesPerSegment)));
    this.nextSequence = sequence + 1;
    const segment: HlsSegment = {
      sequence,
      firstFrame: building.firstFrame,
      frameCount: building.frames.length,
      heardAt: Math.round(building.epoch + building.firstFrame * FRAME_MS + this.leadMs),
      discontinuity: building.discontinuity,
      timeline: building.timeline,
    };
    const bytes = Buffer.concat([segmentId3(frameTimestamp90k(building.firstFrame), building.title), ...building.frames]);
    await blobs.put(`${prefix}/${sequence}.mp3`, bytes);
    this.written.push(segment);
    const old = this.written.length > this.window + this.keep ? this.written.splice(0, this.written.length - this.window - this.keep) : [];
    const kept = this.written.slice(0, Math.max(0, this.written.length - this.window)).map((s) => s.sequence);
    await blobs.put(`${prefix}/${PLAYLIST_NAME}`, Buffer.from(mediaPlaylist(this.playlistSegments, this.framesPerSegment, kept), 'utf8'));
    if (this.written.length >= this.window) old.push(...this.stale.splice(0));
    for (const segment of old) await blobs.delete(`${prefix}/${segment.sequence}.mp3`);
  }
}
