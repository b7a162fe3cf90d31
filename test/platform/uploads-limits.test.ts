/**
 * Security issue #16, item 1: a tiny file must not declare hours of audio. The WAV, MP3, FLAC or AIFF header is read
 * before anything is decoded: sample rates outside 8-192 kHz, channel counts outside 1-8 and durations past
 * STATION_UPLOAD_MAX_SEC are refused with 400 and a message naming what is wrong. Uploads in flight and
 * renders waiting are limited per user (429 with Retry-After).
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackUploads, tracks } from '../../src/infra/db/schema/index.js';
import { pollUntil } from '../helpers/poll.js';
import { stationForSuite } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { aiffOf, artistFor, expectNothingStored, flacOf, form, integerMusic, mp3Of, music, pcmWav, silentWav, stored, upload } from './uploads-support.js';

describe('upload limits', () => {
  let owner: Login;
  let port: number;

  const station = stationForSuite({ STATION_UPLOAD_MAX_SEC: '5' });
  beforeAll(async () => {
    owner = await loginAs(station, 'artist');
    await artistFor(station, owner.userId);
    const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });

  const refused = async (data: Buffer, pattern: RegExp, contentType = 'audio/wav') => {
    const answer = await upload(station, owner, { title: 'Refused', genre: 'Test' }, { data, filename: 'x.wav', contentType });
    expect(answer.statusCode, answer.body).toBe(400);
    const { error } = answer.json();
    expect(error.code).toBe('PLATFORM_VALIDATION_FAILED');
    expect(error.message).toMatch(pattern);
  };

  it('refuses the 224-byte WAV at 1 Hz that declared 180 s, naming the sample rate', async () => {
    const before = await stored(station);
    const tiny = pcmWav({ rate: 1, channels: 1, bits: 8, frames: 180 });
    expect(tiny.length).toBe(224);
    await refused(tiny, /sample rate/i);
    await refused(pcmWav({ rate: 7999, channels: 1, frames: 8000 }), /sample rate.*8.*192/i);
    await refused(pcmWav({ rate: 192_001, channels: 1, frames: 192_001 }), /sample rate/i);
    await expectNothingStored(station, before);
  });

  it('refuses channel counts outside 1-8', async () => {
    const before = await stored(station);
    await refused(pcmWav({ rate: 8000, channels: 9, frames: 8000 }), /channels/i);
    await refused(pcmWav({ rate: 8000, channels: 0, frames: 8000 }), /channels|not usable|undecodable/i);
    // Also lets the refused requests' spooled files go before the next test takes its own `before`.
    await expectNothingStored(station, before);
  });

  it('judges a FLAC or an AIFF by what its header declares, before decoding', async () => {
    const before = await stored(station);
    const input = integerMusic(1.5, 16);
    // STREAMINFO and COMM both claim 10 s of the 1.5 s they hold: refused as too long, not as cut short.
    const flac = flacOf(input, 16);
    flac.writeUInt32BE(10 * 44100, 8 + 14);
    await refused(flac, /longer than 5 s/i, 'audio/flac');
    const aiff = aiffOf(input, 16);
    aiff.writeUInt32BE(10 * 44100, 12 + 8 + 2);
    await refused(aiff, /longer than 5 s/i, 'audio/aiff');
    await refused(aiffOf(input, 16, { rate: 4000 }), /sample rate/i, 'audio/aiff');
    await expectNothingStored(station, before);
  });

  it('refuses audio longer than STATION_UPLOAD_MAX_SEC, WAV and MP3, from the header', async () => {
    const before = await stored(station);
    await refused(silentWav(6), /6(\.0)? s.*5 s|longer than 5 s/i);
    await refused(await mp3Of(music(6.5)), /longer than 5 s/i, 'audio/mpeg');
    // Accepted at the cap.
    const ok = await upload(station, owner, { title: 'Short enough', genre: 'Test' }, { data: silentWav(4), contentType: 'audio/wav' });
    expect(ok.statusCode, ok.body).toBe(202);
    expect(before.tracks + 1).toBe((await stored(station)).tracks);
  });

  it('lets a user have three uploads in flight; the fourth answers 429 with Retry-After, and a slot frees when one ends', async () => {
    const body = form({ title: 'Slow', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' });
    const sockets: Socket[] = [];
    const openSlow = async () => {
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      const head = [
        'POST /v1/tracks HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${owner.token}`,
        `X-CSRF-Token: ${owner.csrf}`,
        `Content-Type: ${body.headers['content-type']}`,
        `Content-Length: ${body.payload.length}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(body.payload.subarray(0, 2000)); // half-sent: the upload stays in flight
      sockets.push(socket);
    };
    await openSlow();
    await openSlow();
    await openSlow();
    await pollUntil(
      'three uploads spooling',
      async () => (await stored(station)).spooled,
      (n) => n === 3,
      10_000,
    );
    const third = await upload(station, owner, { title: 'Fourth', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' });
    expect(third.statusCode, third.body).toBe(429);
    expect(third.json().error.code).toBe('PLATFORM_RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not held back by this one.
    const other = await loginAs(station, 'artist');
    await artistFor(station, other.userId);
    const theirs = await upload(station, other, { title: 'Theirs', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' });
    expect(theirs.statusCode, theirs.body).toBe(202);

    sockets[0].destroy();
    await pollUntil(
      'a slot freed by the aborted upload',
      async () => (await upload(station, owner, { title: 'Later', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' })).statusCode,
      (status) => status === 202,
      10_000,
    );
    for (const socket of sockets) socket.destroy();
  });

  it('refuses a new upload while the user already has three tracks waiting for their renditions (429)', async () => {
    const waiting = await loginAs(station, 'artist');
    const own = await artistFor(station, waiting.userId);
    const { db } = station.database;
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      await db
        .insert(tracks)
        .values({ id, slug: `waiting-${id.slice(0, 8)}`, title: 'Waiting', artistId: own.id, genre: 'Test', status: 'processing', durationSec: 2 });
      await db.insert(trackUploads).values({
        trackId: id,
        uploadedBy: waiting.userId,
        masterBlobKey: `tracks/${id}/master.wav`,
        masterFormat: 'wav',
        container: 'WAVE',
        codec: 'PCM',
        sizeBytes: 1,
        sampleRate: 44100,
        channels: 2,
      });
    }
    const answer = await upload(station, waiting, { title: 'Fourth', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' });
    expect(answer.statusCode, answer.body).toBe(429);
    expect(answer.json().error.code).toBe('PLATFORM_RATE_LIMITED');
    expect(answer.headers['retry-after']).toBeDefined();
  });
});
