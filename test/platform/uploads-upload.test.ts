/**
 * POST /v1/tracks: real audio from the radio's own encoders is probed, measured, stored as the master,
 * rendered at 128/192/320 kbps in the background and published (track.published); each rendition streams
 * with an exact length and Range. Files that are not audio, cut short or over the limit are refused with
 * a clear 4xx and leave nothing behind.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import { artists, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';
import { seedTracks } from './listeners-support.js';
import { artistFor, expectNothingStored, mp3Of, music, published, silentWav, sine, stored, upload, wavOf } from './uploads-support.js';

describe('track upload', () => {
  let station: TestStation;
  let receiver: Receiver;
  let secret: string;
  let owner: Login;
  let artist: { id: string; slug: string };
  let mp3: Buffer;
  let admin: Awaited<ReturnType<typeof staffLogin>>;

  beforeAll(async () => {
    // A 1 MB limit, so an oversized file is quick to send.
    station = await buildTestStation({ STATION_UPLOAD_MAX_MB: '1', STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    receiver = await startReceiver();
    admin = await staffLogin(station);
    const hook = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(admin),
      payload: { url: receiver.url, events: ['track.published'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    secret = hook.json().secret;
    owner = await loginAs(station, 'artist');
    artist = await artistFor(station, owner.userId);
    mp3 = await mp3Of(music(3), { TIT2: 'Harbour Lights', TPE1: 'The Tag Band', TSRC: 'GB-XYZ-25-00001', TCON: 'Synthwave', TALB: 'Night Drive' });
  });
  afterAll(async () => {
    await receiver?.close();
    await station?.destroy();
  });

  it('accepts an MP3 from the radio encoder: tags fill the fields, 202 processing, then published with track.published', async () => {
    const answer = await upload(station, owner, { mood: 'dreamy, nocturnal' }, { data: mp3, filename: 'harbour.mp3' });
    expect(answer.statusCode, answer.body).toBe(202);
    const accepted = answer.json();
    expect(answer.headers.location).toBe(`/v1/tracks/${accepted.id}/upload`);
    expect(accepted).toMatchObject({
      status: 'processing',
      title: 'Harbour Lights',
      genre: 'Synthwave',
      isrc: 'GBXYZ2500001',
      album: 'Night Drive',
      mood: ['dreamy', 'nocturnal'],
      artist_id: artist.id,
      master: {
        format: 'mp3',
        container: 'MPEG',
        codec: 'MPEG 1 Layer 3',
        sample_rate: 44100,
        channels: 2,
        bitrate_kbps: 192,
        size_bytes: mp3.length,
        filename: 'harbour.mp3',
      },
      tags: { title: 'Harbour Lights', artist: 'The Tag Band', isrc: 'GBXYZ2500001' },
      renditions: [],
    });
    expect(accepted.duration_sec).toBeGreaterThan(2.9);
    expect(accepted.duration_sec).toBeLessThan(3.2);
    expect(accepted.loudness_lufs).toBeLessThan(-5);

    const done = await published(station, owner, accepted.id);
    expect(done.renditions.map((r: { bitrate_kbps: number }) => r.bitrate_kbps)).toEqual([128, 192, 320]);
    const [delivery] = await receiver.waitFor(accepted.id, 1);
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: 'track.published',
      data: { track_id: accepted.id, artist_id: artist.id, title: 'Harbour Lights', genre: 'Synthwave' },
    });
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);

    const listener = await loginAs(station, 'listener');
    const detail = await station.http.inject({ method: 'GET', url: `/v1/tracks/${accepted.id}`, headers: bearer(listener) });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      title: 'Harbour Lights',
      status: 'published',
      audio: { format: 'mp3', bitrate_kbps: 320, loudness_lufs: accepted.loudness_lufs },
    });
  }, 180_000);

  it("uploads with a test key into the sandbox, as the sandbox copy of the owner's artist, out of the live catalog and the radio", async () => {
    const { key } = await station.auth.createApiKey({ name: 'sandbox', scopes: ['artist', 'tracks:read'], environment: 'test', ownerUserId: owner.userId });
    const exchanged = (await station.http.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key } })).json();
    const sandbox = { token: exchanged.token, csrf: exchanged.csrf_token };
    const answer = await upload(station, sandbox, { title: 'Sandbox Song', genre: 'Rock', isrc: 'GB-XYZ-25-00001' }, { data: mp3 });
    expect(answer.statusCode, answer.body).toBe(202);
    const view = answer.json();
    await published(station, sandbox, view.id);
    const [row] = await station.database.db.select().from(tracks).where(eq(tracks.id, view.id));
    expect(row.environment).toBe('test');
    expect(row.isrc).toBe('GBXYZ2500001'); // a live track holds it too: ISRCs are unique per environment
    const [twin] = await station.database.db.select().from(artists).where(eq(artists.id, row.artistId));
    expect([twin.environment, twin.slug, twin.ownerUserId, twin.platformOwned]).toEqual(['test', artist.slug, owner.userId, false]);
    expect((await station.http.inject({ method: 'GET', url: `/v1/tracks/${view.id}`, headers: bearer(sandbox) })).statusCode).toBe(200);
    expect((await station.http.inject({ method: 'GET', url: `/v1/tracks/${view.id}`, headers: bearer(owner) })).statusCode).toBe(404);
    expect((await station.http.inject({ method: 'GET', url: `/v1/tracks/${view.id}/upload`, headers: bearer(owner) })).statusCode).toBe(404);
    const candidates = await new CatalogTrackReads(station.database.db).radioCandidates(true);
    expect(candidates.map((c) => c.id)).not.toContain(view.id);
  });

  it('measures the loudness of a WAV master: a full-scale 997 Hz sine in one channel is -3.01 LUFS', async () => {
    const wav = wavOf(sine(2, 0, true));
    const answer = await upload(station, owner, { title: 'Reference tone', genre: 'Test' }, { data: wav, filename: 'tone.wav', contentType: 'audio/wav' });
    expect(answer.statusCode, answer.body).toBe(202);
    const view = answer.json();
    expect(view.master).toMatchObject({ format: 'wav', container: 'WAVE', codec: 'PCM', channels: 2, bitrate_kbps: 1411 });
    expect(view.duration_sec).toBeCloseTo(2, 6);
    expect(Math.abs(view.loudness_lufs - -3.01)).toBeLessThan(0.1);
    await published(station, owner, view.id);
  }, 180_000);

  it('streams each rendition seekable from the first byte with its exact length, chosen by quality', async () => {
    const answer = await upload(station, owner, { title: 'Seekable', genre: 'Ambient' }, { data: await mp3Of(music(2)) });
    const view = await published(station, owner, answer.json().id);
    const listener = await loginAs(station, 'listener');
    const follow = async (quality?: string) => {
      const redirect = await station.http.inject({
        method: 'GET',
        url: `/v1/tracks/${view.id}/stream${quality ? `?quality=${quality}` : ''}`,
        headers: bearer(listener),
      });
      expect(redirect.statusCode, redirect.body).toBe(302);
      return new URL(String(redirect.headers.location)).pathname + new URL(String(redirect.headers.location)).search;
    };
    for (const rendition of view.renditions as { bitrate_kbps: number; size_bytes: number; quality: string }[]) {
      const link = await follow(rendition.quality);
      const whole = await station.http.inject({ method: 'GET', url: link });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('audio/mpeg');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(Number(whole.headers['content-length'])).toBe(rendition.size_bytes);
      expect(whole.rawPayload.length).toBe(rendition.size_bytes);
      const frames = parseMp3(whole.rawPayload).frames;
      expect(new Set(frames.map((f) => f.bitrateKbps))).toEqual(new Set([rendition.bitrate_kbps]));

      const head = await station.http.inject({ method: 'GET', url: link, headers: { range: 'bytes=0-99' } });
      expect(head.statusCode).toBe(206);
      expect(head.headers['content-range']).toBe(`bytes 0-99/${rendition.size_bytes}`);
      expect(head.rawPayload.equals(whole.rawPayload.subarray(0, 100))).toBe(true);
      const tail = await station.http.inject({ method: 'GET', url: link, headers: { range: `bytes=${rendition.size_bytes - 500}-` } });
      expect(tail.statusCode).toBe(206);
      expect(Number(tail.headers['content-length'])).toBe(500);
      expect(tail.rawPayload.equals(whole.rawPayload.subarray(rendition.size_bytes - 500))).toBe(true);
    }
    expect(await follow()).toBe(await follow('320kbps'));
    expect(await follow('128')).toBe(await follow('128kbps'));
    const wrong = await station.http.inject({ method: 'GET', url: `/v1/tracks/${view.id}/stream?quality=96kbps`, headers: bearer(listener) });
    expect(wrong.statusCode).toBe(400);
  }, 180_000);

  describe('refusals store nothing', () => {
    const expectRefused = async (answer: Awaited<ReturnType<typeof upload>>, status: number, code: string, detail?: RegExp) => {
      expect(answer.statusCode, answer.body).toBe(status);
      const error = answer.json().error;
      expect(error.code).toBe(code);
      if (detail) expect(`${error.message} ${error.detail}`).toMatch(detail);
    };

    it('refuses a truncated MP3 and a truncated WAV with 400', async () => {
      const before = await stored(station);
      const cut = mp3.subarray(0, Math.floor(mp3.length * 0.6) + 7);
      await expectRefused(await upload(station, owner, { title: 'Cut', genre: 'Rock' }, { data: cut }), 400, 'PLATFORM_VALIDATION_FAILED', /truncated/);
      const wav = wavOf(music(1.5));
      const cutWav = wav.subarray(0, Math.floor(wav.length / 2) + 1);
      await expectRefused(
        await upload(station, owner, { title: 'Cut', genre: 'Rock' }, { data: cutWav, contentType: 'audio/wav' }),
        400,
        'PLATFORM_VALIDATION_FAILED',
        /truncated/,
      );
      await expectNothingStored(station, before);
    });

    it('refuses a file that is not audio with 415, whatever its name and Content-Type say', async () => {
      const before = await stored(station);
      const text = Buffer.from('This is a text file pretending to be a song.\n'.repeat(200));
      await expectRefused(
        await upload(station, owner, { title: 'Fake', genre: 'Pop' }, { data: text, filename: 'song.mp3', contentType: 'audio/mpeg' }),
        415,
        'PLATFORM_UNSUPPORTED_MEDIA_TYPE',
      );
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(4000, 7)]);
      await expectRefused(
        await upload(station, owner, { title: 'Fake', genre: 'Pop' }, { data: png, filename: 'cover.wav', contentType: 'audio/wav' }),
        415,
        'PLATFORM_UNSUPPORTED_MEDIA_TYPE',
      );
      const json = await station.http.inject({ method: 'POST', url: '/v1/tracks', headers: bearer(owner), payload: { title: 'Fake', genre: 'Pop' } });
      await expectRefused(json, 415, 'PLATFORM_UNSUPPORTED_MEDIA_TYPE', /multipart/);
      await expectNothingStored(station, before);
    });

    it('refuses a file over the size limit with 413, announced or not', async () => {
      const before = await stored(station);
      const big = silentWav(9); // ~1.6 MB: the Content-Length alone gives it away
      await expectRefused(
        await upload(station, owner, { title: 'Big', genre: 'Rock' }, { data: big, contentType: 'audio/wav' }),
        413,
        'PLATFORM_PAYLOAD_TOO_LARGE',
      );
      const justOver = silentWav(6).subarray(0, 1024 * 1024 + 10_000); // within the form's allowance: caught while streaming
      await expectRefused(
        await upload(station, owner, { title: 'Big', genre: 'Rock' }, { data: justOver, contentType: 'audio/wav' }),
        413,
        'PLATFORM_PAYLOAD_TOO_LARGE',
      );
      await expectNothingStored(station, before);
    });

    it('refuses a form without a file, with unknown fields, or without a title anywhere (400)', async () => {
      const before = await stored(station);
      await expectRefused(await upload(station, owner, { title: 'No file', genre: 'Rock' }), 400, 'PLATFORM_VALIDATION_FAILED', /file/);
      await expectRefused(await upload(station, owner, { title: 'X', genre: 'Rock', price: '3' }, { data: mp3 }), 400, 'PLATFORM_VALIDATION_FAILED');
      await expectRefused(await upload(station, owner, {}, { data: await mp3Of(music(1.5)) }), 400, 'PLATFORM_VALIDATION_FAILED', /title/);
      await expectNothingStored(station, before);
    });

    it('refuses an ISRC another track holds (409), and callers without the artist scope or artist (403, 400)', async () => {
      const [held] = await seedTracks(station, artist.id, 1);
      await station.database.db.update(tracks).set({ isrc: 'GBXYZ2500077' }).where(eq(tracks.id, held.id));
      const before = await stored(station);
      await expectRefused(await upload(station, owner, { title: 'Again', genre: 'Rock', isrc: 'GB-XYZ-25-00077' }, { data: mp3 }), 409, 'PLATFORM_CONFLICT');
      const listener = await loginAs(station, 'listener');
      await expectRefused(await upload(station, listener, { title: 'X', genre: 'Rock' }, { data: mp3 }), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
      const homeless = await loginAs(station, 'artist');
      await expectRefused(await upload(station, homeless, { title: 'X', genre: 'Rock' }, { data: mp3 }), 400, 'PLATFORM_VALIDATION_FAILED', /artist_id/);
      await expectRefused(await upload(station, homeless, { title: 'X', genre: 'Rock', artist_id: artist.slug }, { data: mp3 }), 403, 'PLATFORM_FORBIDDEN');
      // A sandbox (test) key never writes to the live catalog, even an admin's with the artist scope: the live
      // artist is none of the sandbox's.
      const key = await createKey(station, { ...admin, refreshToken: '', email: '', password: '' }, { scopes: ['artist'], environment: 'test' });
      const exchanged = (await station.http.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json();
      const sandbox = { token: exchanged.token, csrf: exchanged.csrf_token };
      await expectRefused(await upload(station, sandbox, { title: 'X', genre: 'Rock', artist_id: artist.id }, { data: mp3 }), 404, 'PLATFORM_NOT_FOUND');
      await expectNothingStored(station, before);
    });
  });
});
