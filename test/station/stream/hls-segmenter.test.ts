/**
 * The HLS segmenter on real LAME frames and the filesystem BlobStore, with a hand-driven clock: segments end
 * on frame edges at multiples of the segment length, are published once the send edge passed their end, the
 * playlist rolls with the media sequence, and segments that left it are deleted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../../src/infra/blobs/blob-store.js';
import { parseMp3 } from '../../../src/engine/audio/mp3-frames.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { HlsSegmenter, frameTimestamp90k, segmentSeconds } from '../../../src/station/stream/hls-segmenter.js';
import { toneMp3 } from './helpers.js';

const EPOCH = Date.UTC(2026, 10, 27, 17, 0, 0);
const LEAD_MS = 2000;

let dir: string;
let blobs: FileBlobStore;
let frames: Buffer[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hls-segmenter-'));
  blobs = new FileBlobStore(dir);
  const mp3 = await toneMp3(440, 3);
  frames = parseMp3(mp3).frames.map((f) => mp3.subarray(f.offset, f.offset + f.length));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The ID3v2 tag's size (header included) and its PRIV timestamp and TIT2 title. */
function readId3(segment: Buffer): { size: number; timestamp: bigint; title: string | null } {
  expect(segment.subarray(0, 3).toString('latin1')).toBe('ID3');
  const size = 10 + ((segment[6] << 21) | (segment[7] << 14) | (segment[8] << 7) | segment[9]);
  let timestamp = -1n;
  let title: string | null = null;
  for (let at = 10; at < size;) {
    const id = segment.subarray(at, at + 4).toString('latin1');
    const length = (segment[at + 4] << 21) | (segment[at + 5] << 14) | (segment[at + 6] << 7) | segment[at + 7];
    const body = segment.subarray(at + 10, at + 10 + length);
    if (id === 'PRIV') {
      const owner = 'com.apple.streaming.transportStreamTimestamp\0';
      expect(body.subarray(0, owner.length).toString('latin1')).toBe(owner);
      timestamp = body.readBigUInt64BE(owner.length);
    }
    if (id === 'TIT2') title = body.subarray(1).toString('utf8');
    at += 10 + length;
  }
  return { size, timestamp, title };
}

describe('HlsSegmenter', () => {
  it('cuts on frame edges, publishes due segments, rolls the playlist and deletes old segments', async () => {
    let now = EPOCH;
    const segmenter = new HlsSegmenter({
      blobs,
      prefix: 'hls/live',
      framesPerSegment: 10,
      window: 3,
      keep: 1,
      leadMs: LEAD_MS,
      now: () => now,
      firstSequence: 100,
    });
    // Frames 5..74 arrive in chunks of 7, each ahead of its send time; the title changes at frame 40.
    const first = 5;
    for (let at = 0; at < 70; at += 7) {
      const index = first + at;
      const title = index < 40 ? 'First song' : 'Second song';
      await segmenter.push({ run: 'r1', first: index, epoch: EPOCH, frames: frames.slice(index, index + 7), title });
    }
    // Nothing is due yet: the send edge is still at the epoch.
    expect(segmenter.playlistSegments).toEqual([]);
    expect(await blobs.stat('hls/live/playlist.m3u8')).toBeNull();

    // The send edge passes frame 69's end, not frame 74's: segments [5,10) .. [60,70) come due, [70,75) is unfinished.
    now = EPOCH + 70 * FRAME_MS;
    await segmenter.flush();
    const listed = segmenter.playlistSegments;
    expect(listed.map((s) => [s.sequence, s.firstFrame, s.frameCount])).toEqual([
      [104, 40, 10],
      [105, 50, 10],
      [106, 60, 10],
    ]);

    const playlist = (await blobs.get('hls/live/playlist.m3u8')).toString('utf8');
    const at = (frame: number) => new Date(Math.round(EPOCH + frame * FRAME_MS + LEAD_MS)).toISOString();
    expect(playlist).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:1',
        '#EXT-X-MEDIA-SEQUENCE:104',
        '#STATION-KEPT:103',
        '#STATION-FRAMES:,40,10',
        `#EXT-X-PROGRAM-DATE-TIME:${at(40)}`,
        '#EXTINF:0.261,',
        '104.mp3',
        '#STATION-FRAMES:,50,10',
        `#EXT-X-PROGRAM-DATE-TIME:${at(50)}`,
        '#EXTINF:0.261,',
        '105.mp3',
        '#STATION-FRAMES:,60,10',
        `#EXT-X-PROGRAM-DATE-TIME:${at(60)}`,
        '#EXTINF:0.261,',
        '106.mp3',
        '',
      ].join('\n'),
    );
    expect(segmentSeconds(10)).toBeCloseTo((10 * 1152) / 44100, 9);

    // The first segment ran from frame 5 to the first boundary (5 frames); 100-102 are deleted, 103 is kept one more.
    for (const sequence of [100, 101, 102]) expect(await blobs.stat(`hls/live/${sequence}.mp3`)).toBeNull();
    expect(await blobs.stat('hls/live/103.mp3')).not.toBeNull();

    // A segment: the ID3 tag (timestamp of its first frame, title on air), then exactly its frames.
    const segment = await blobs.get('hls/live/106.mp3');
    const id3 = readId3(segment);
    expect(id3.timestamp).toBe(frameTimestamp90k(60));
    expect(id3.title).toBe('Second song');
    expect(segment.subarray(id3.size).equals(Buffer.concat(frames.slice(60, 70)))).toBe(true);
    const parsed = parseMp3(segment);
    expect(parsed.frames).toHaveLength(10);
    expect(parsed.skipped.garbageBytes).toBe(0);
    expect(readId3(await blobs.get('hls/live/103.mp3')).title).toBe('First song');

    // Timestamps are continuous: each segment starts where the previous one ended, in 90 kHz units.
    expect(frameTimestamp90k(50) - frameTimestamp90k(40)).toBe(BigInt(Math.round((10 * 1152 * 90_000) / 44100)));
  });

  it('marks a discontinuity after a gap and starts a new segment there', async () => {
    let now = EPOCH;
    const segmenter = new HlsSegmenter({ blobs, prefix: 'hls/gap', framesPerSegment: 10, window: 6, keep: 1, now: () => now, firstSequence: 1 });
    await segmenter.push({ run: 'a', first: 0, epoch: EPOCH, frames: frames.slice(0, 14), title: null });
    // Frames 14..22 were lost; the timeline goes on at 23.
    await segmenter.push({ run: 'a', first: 23, epoch: EPOCH, frames: frames.slice(23, 40), title: null });
    now = EPOCH + 40 * FRAME_MS;
    await segmenter.flush();
    expect(segmenter.playlistSegments.map((s) => [s.sequence, s.firstFrame, s.frameCount, s.discontinuity])).toEqual([
      [1, 0, 10, false],
      [2, 23, 7, true],
      [3, 30, 10, false],
    ]);
    const playlist = (await blobs.get('hls/gap/playlist.m3u8')).toString('utf8');
    expect(playlist).toMatch(
      /#EXTINF:0\.261,\n1\.mp3\n#EXT-X-DISCONTINUITY\n#STATION-FRAMES:,23,7\n#EXT-X-PROGRAM-DATE-TIME:[^\n]+\n#EXTINF:0\.183,\n2\.mp3\n/,
    );
  });
});

describe('HlsSegmenter across runs', () => {
  it('starts a fresh playlist on a new run, numbered on, and deletes the old run once it is full', async () => {
    let now = EPOCH;
    const segmenter = new HlsSegmenter({ blobs, prefix: 'hls/runs', framesPerSegment: 10, window: 2, keep: 0, now: () => now });
    await segmenter.push({ run: 'first', first: 0, epoch: EPOCH, frames: frames.slice(0, 20), title: null });
    now = EPOCH + 20 * FRAME_MS;
    await segmenter.flush();
    const before = segmenter.playlistSegments.map((s) => s.sequence);
    expect(before).toHaveLength(2);
    expect(before[1]).toBe(before[0] + 1);
    // The first sequence number is the wall clock in segments, so a later leader's numbers are higher.
    expect(before[0]).toBe(Math.floor(now / (10 * FRAME_MS)));

    // A new run, its frames counted from 0 again (a restarted playout), an hour later.
    const later = EPOCH + 3_600_000;
    now = later;
    await segmenter.push({ run: 'second', first: 0, epoch: later, frames: frames.slice(0, 10), title: null });
    now = later + 10 * FRAME_MS;
    await segmenter.flush();
    const fresh = segmenter.playlistSegments;
    expect(fresh.map((s) => [s.firstFrame, s.discontinuity])).toEqual([[0, false]]);
    expect(fresh[0].sequence).toBe(Math.floor(now / (10 * FRAME_MS)));
    const playlist = (await blobs.get('hls/runs/playlist.m3u8')).toString('utf8');
    expect(playlist).toContain(`#EXT-X-MEDIA-SEQUENCE:${fresh[0].sequence}\n`);
    expect(playlist.match(/#EXTINF/g)).toHaveLength(1);
    // The old run's segments stay while the new playlist fills up, and go when it is full.
    for (const sequence of before) expect(await blobs.stat(`hls/runs/${sequence}.mp3`)).not.toBeNull();
    await segmenter.push({ run: 'second', first: 10, epoch: later, frames: frames.slice(10, 20), title: null });
    now = later + 20 * FRAME_MS;
    await segmenter.flush();
    for (const sequence of before) expect(await blobs.stat(`hls/runs/${sequence}.mp3`)).toBeNull();
    expect(segmenter.playlistSegments.map((s) => s.sequence)).toEqual([fresh[0].sequence, fresh[0].sequence + 1]);
  });
});

describe('HlsSegmenter after a takeover', () => {
  it("continues the last leader's playlist: the sequence goes on, a discontinuity only where the timeline restarts", async () => {
    let now = EPOCH;
    const options = { blobs, prefix: 'hls/takeover', framesPerSegment: 10, window: 4, keep: 1, leadMs: LEAD_MS, now: () => now };
    const old = new HlsSegmenter({ ...options, firstSequence: 200 });
    await old.push({ run: 'a', timeline: 'T', first: 0, epoch: EPOCH, frames: frames.slice(0, 40), title: null });
    now = EPOCH + 35 * FRAME_MS;
    await old.flush();
    expect(old.playlistSegments.map((s) => s.sequence)).toEqual([200, 201, 202]);

    // The old leader dies with [30, 40) unwritten. The new one (another instance, no state of its own) starts
    // from what its follower kept: frames 25.. (some already in the playlist), same timeline, same clock.
    now = EPOCH + 50 * FRAME_MS;
    const next = new HlsSegmenter(options);
    await next.push({ run: 'b', timeline: 'T', first: 25, epoch: EPOCH, frames: frames.slice(25, 50), title: null });
    expect(next.playlistSegments.map((s) => [s.sequence, s.firstFrame, s.frameCount, s.discontinuity])).toEqual(
      [
        [200, 0, 10, false],
        [201, 10, 10, false],
        [202, 20, 10, false],
        [203, 30, 10, false],
        [204, 40, 10, false],
      ].slice(-4),
    );
    const playlist = (await blobs.get('hls/takeover/playlist.m3u8')).toString('utf8');
    expect(playlist).toContain('#EXT-X-MEDIA-SEQUENCE:201\n');
    expect(playlist).not.toContain('#EXT-X-DISCONTINUITY');
    // The segment the old leader never wrote is whole: frames 30..39, continuous with 202.
    const joined = await blobs.get('hls/takeover/203.mp3');
    expect(readId3(joined).timestamp).toBe(frameTimestamp90k(30));
    expect(joined.subarray(readId3(joined).size).equals(Buffer.concat(frames.slice(30, 40)))).toBe(true);

    // Everything restarted: a fresh timeline, counted from 0 on a new clock. Numbered on, marked as a discontinuity.
    const restart = now;
    const fresh = new HlsSegmenter(options);
    await fresh.push({ run: 'c', timeline: 'U', first: 0, epoch: restart, frames: frames.slice(0, 10), title: null });
    now = restart + 10 * FRAME_MS;
    await fresh.flush();
    expect(fresh.playlistSegments.map((s) => [s.sequence, s.firstFrame, s.discontinuity])).toEqual([
      [202, 20, false],
      [203, 30, false],
      [204, 40, false],
      [205, 0, true],
    ]);
    expect((await blobs.get('hls/takeover/playlist.m3u8')).toString('utf8')).toMatch(/204\.mp3\n#EXT-X-DISCONTINUITY\n/);
    // The first leader's oldest segment left the window and its grace: deleted by whoever leads now.
    expect(await blobs.stat('hls/takeover/200.mp3')).toBeNull();
  });
});
