/**
 * HLS on a playing station (catalog masters from the fake engine, the real playout and blob store):
 * stream-info carries hls_url; its playlist answers #EXTM3U with a rolling window whose segments decode as
 * MPEG audio frames; without a valid ticket both answer 401 with the contract's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../../src/engine/audio/mp3-frames.js';
import { authHeaders, signupListener, staffLogin } from '../../helpers/station.js';
import { buildTrainedStation } from '../../helpers/trained-station.js';
import { pollUntil } from '../../helpers/poll.js';

type Station = Awaited<ReturnType<typeof buildTrainedStation>>;

describe('HLS output', () => {
  let station: Station;
  let listener: Record<string, string>;

  beforeAll(async () => {
    station = await buildTrainedStation({ STATION_SCHEDULER_CYCLE_SEC: '1' }, { masters: 4, trackSec: 6, models: [], fakeEngine: true });
    const admin = authHeaders(await staffLogin(station));
    await station.http.inject({
      method: 'PATCH',
      url: '/station/v1/admin/config',
      headers: admin,
      payload: { catalog_ratio: 1, ai_generation_ratio: 0, generation_mode: 'catalog_only' },
    });
    expect((await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: admin })).statusCode).toBe(200);
    listener = authHeaders(await signupListener(station));
  }, 300_000);
  afterAll(() => station?.destroy());

  it('gives hls_url in stream-info; its playlist lists segments of MPEG audio frames', async () => {
    const info = (await station.http.inject({ url: '/station/v1/radio/stream-info', headers: listener })).json();
    expect(info.hls_url).toMatch(/^http:\/\/station\.test\/station\/v1\/radio\/hls\/live\.m3u8\?ticket=[^&]+$/);
    const playlistPath = info.hls_url.replace('http://station.test', '');
    const ticket = new URL(info.hls_url).searchParams.get('ticket')!;

    // The first segment is published once the stream's send edge passed its end (~4 s of audio).
    const playlist = await pollUntil(
      'the playlist to list two segments',
      async () => {
        const response = await station.http.inject({ url: playlistPath });
        return response.statusCode === 200 ? response : null;
      },
      (response) => !!response && (response.body.match(/#EXTINF/g) ?? []).length >= 2,
      60_000,
      250,
    );
    expect(playlist!.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    const text = playlist!.body;
    expect(text.startsWith('#EXTM3U\n')).toBe(true);
    expect(text).toMatch(/#EXT-X-TARGETDURATION:4\n/);
    expect(text).toMatch(/#EXT-X-MEDIA-SEQUENCE:\d+\n/);
    expect(text).toMatch(/#EXT-X-PROGRAM-DATE-TIME:\d{4}-\d\d-\d\dT[\d:.]+Z\n#EXTINF:[\d.]+,\n/);
    const uris = text.split('\n').filter((line) => line && !line.startsWith('#'));
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)![1]);
    uris.forEach((uri, i) => expect(uri).toBe(`${sequence + i}.mp3?ticket=${encodeURIComponent(ticket)}`));

    // A segment: an ID3 tag (its timestamp) and then only MPEG audio frames, ~4 s of them.
    const segment = await station.http.inject({ url: `/station/v1/radio/hls/${uris[uris.length - 1]}` });
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('audio/mpeg');
    const bytes = segment.rawPayload;
    expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
    const parsed = parseMp3(bytes);
    expect(parsed.skipped.garbageBytes).toBe(0);
    expect(parsed.frames.length).toBeGreaterThan(0);
    expect(parsed.frames.length).toBeLessThanOrEqual(153);
    expect(parsed.frames.every((frame) => frame.sampleRate === 44100 && frame.bitrateKbps === 128)).toBe(true);
    const extinf = [...text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    expect(extinf[extinf.length - 1]).toBeCloseTo((parsed.frames.length * 1152) / 44100, 2);
  }, 120_000);

  it('refuses the playlist and segments without a valid ticket (401)', async () => {
    for (const url of ['/station/v1/radio/hls/live.m3u8', '/station/v1/radio/hls/live.m3u8?ticket=1.abc.def', '/station/v1/radio/hls/1.mp3']) {
      const response = await station.http.inject({ url });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('STATION_AUTH_REQUIRED');
    }
    // Not a segment name: no blob key is ever built from it, and like any id that names nothing it is a 404.
    const info = (await station.http.inject({ url: '/station/v1/radio/stream-info', headers: listener })).json();
    const ticket = new URL(info.hls_url).searchParams.get('ticket')!;
    const odd = await station.http.inject({ url: `/station/v1/radio/hls/..%2Fsecret.mp3?ticket=${encodeURIComponent(ticket)}` });
    expect(odd.statusCode).toBe(404);
    expect(odd.json().error.code).toBe('STATION_NOT_FOUND');
  });
});
