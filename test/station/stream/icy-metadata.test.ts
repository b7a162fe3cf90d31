import { beforeAll, describe, expect, it } from 'vitest';
import { StreamBroadcaster } from '../../../src/station/stream/broadcaster.js';
import { IcyMetadataSink, icyMetadataBlock } from '../../../src/station/stream/icy-metadata.js';
import { parseMp3 } from '../../../src/engine/audio/mp3-frames.js';
import { decodeMp3, toneAmplitude } from '../playout-support.js';
import { FakeTimers, ListSource, MemorySink, deinterleave, tagged, toneMp3, type TestTrack } from './helpers.js';

let tracks: TestTrack[];

beforeAll(async () => {
  tracks = [
    { id: 'a', title: "Station AI - Rock'n'Roll Dawn", file: tagged(await toneMp3(220, 2), 'a') },
    { id: 'b', title: 'Station AI - Second Light', file: tagged(await toneMp3(440, 2), 'b') },
  ];
});

describe('icyMetadataBlock', () => {
  it('is a length byte and StreamTitle padded to 16-byte blocks', () => {
    const block = icyMetadataBlock('Artist - Title');
    const text = "StreamTitle='Artist - Title';";
    expect(block[0]).toBe(Math.ceil(text.length / 16));
    expect(block.length).toBe(1 + block[0] * 16);
    expect(block.subarray(1, 1 + text.length).toString()).toBe(text);
    expect(block.subarray(1 + text.length).every((byte) => byte === 0)).toBe(true);
    expect(icyMetadataBlock('x'.repeat(10_000)).length).toBe(1 + 255 * 16);
  });
});

describe('IcyMetadataSink', () => {
  it('interleaves the current title every metaint bytes, only when it changed, leaving the audio intact', async () => {
    const timers = new FakeTimers();
    const broadcaster = new StreamBroadcaster(new ListSource(tracks), { timers, tickMs: 200, leadMs: 500 });
    timers.settle = () => broadcaster.idle();
    const plain = new MemorySink();
    const icyOut = new MemorySink();
    broadcaster.addListener(plain);
    broadcaster.addListener(new IcyMetadataSink(icyOut, () => broadcaster.currentTitle() ?? 'Station', 4000));
    await broadcaster.start();
    await timers.advance(2600); // the second track still sounds at the send edge (0.5 s lead + 2.6 s)
    const { audio, blocks } = deinterleave(icyOut.bytes(), 4000);
    expect(audio.equals(plain.bytes())).toBe(true);
    expect(parseMp3(audio).skipped.garbageBytes).toBe(0);
    expect(blocks.length).toBe(Math.floor(audio.length / 4000));
    const titled = blocks.filter((block) => block.text !== '');
    expect(titled.map((block) => block.text)).toEqual(["StreamTitle='Station AI - Rock’n’Roll Dawn';", "StreamTitle='Station AI - Second Light';"]);
    // The second title lands near where the second track takes over in the crossfade (its tone gets the
    // louder): at most one tick's bytes before (the title switches at the tick that carries that point), at
    // most one metaint after. 128 kbps: 417.96 bytes per 1152-sample frame.
    const { left } = await decodeMp3(audio);
    let crossing = 0;
    for (let at = 22050; at + 2048 < left.length; at += 256) {
      if (toneAmplitude(left, 440, at, 2048) >= toneAmplitude(left, 220, at, 2048)) {
        crossing = at + 1024;
        break;
      }
    }
    const boundary = (crossing / 1152) * 417.96;
    const tickBytes = (128_000 / 8) * 0.2 + 2 * 418;
    expect(titled[1].at).toBeGreaterThan(boundary - tickBytes);
    expect(titled[1].at).toBeLessThanOrEqual(boundary + 4000);
    broadcaster.stop();
    expect(icyOut.ended).toBe(true);
  });
});
