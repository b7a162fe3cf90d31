/**
 * Security issue #16, item 6: the paid download is not the free stream. A purchase downloads the track's master
 * as uploaded (an object no stream link names), or for a track without one a download rendition under a key of
 * its own; GET /v1/tracks/{id}/stream keeps handing out the renditions, whatever the quality asked.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackUploads, tracks } from '../../src/infra/db/schema/index.js';
import { eq } from 'drizzle-orm';
import { stationForSuite } from '../helpers/station.js';
import { buyInSandbox, createProduct, headers, seedArtist, userWithRole, type SeededArtist, type User } from './store-support.js';

let artist: SeededArtist;
let buyer: User;
const master = Buffer.concat([Buffer.from('RIFF'), randomBytes(64)]);

const station = stationForSuite({ STATION_STORE_SANDBOX_LIVE: 'true' });
beforeAll(async () => {
  artist = await seedArtist(station, 'Lossless Quay');
  // The first track as an upload leaves it (platform/uploads): the WAV master kept, the catalog row on its 320 kbps
  // stream rendition with the 128 and 192 beside it.
  const [uploaded] = artist.trackIds;
  const stream = `tracks/${uploaded}/stream.mp3`;
  await station.database.db.update(tracks).set({ audioBlobKey: stream, audioBitrateKbps: 320 }).where(eq(tracks.id, uploaded));
  await station.blobs.put(stream, Buffer.from('the 320 kbps stream'));
  await station.blobs.put(`tracks/${uploaded}/stream.128k.mp3`, Buffer.from('the 128 kbps stream'));
  await station.blobs.put(`tracks/${uploaded}/stream.192k.mp3`, Buffer.from('the 192 kbps stream'));
  await station.blobs.put(`tracks/${uploaded}/master.wav`, master);
  await station.database.db.insert(trackUploads).values({
    trackId: uploaded,
    uploadedBy: artist.owner.userId,
    masterBlobKey: `tracks/${uploaded}/master.wav`,
    masterFormat: 'wav',
    container: 'wav',
    sizeBytes: master.length,
    sampleRate: 44100,
    channels: 2,
  });
  buyer = await userWithRole(station, 'listener');
  await buyInSandbox(station, buyer, await createProduct(station, artist, { price: 5 }));
});

const path = (url: string) => url.replace('http://station.test', '');
const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\/media\//, ''));

async function downloadUrl(trackId: string): Promise<string> {
  const answer = await station.http.inject({ method: 'GET', url: `/v1/store/downloads/${trackId}`, headers: headers(buyer) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().url;
}

/** Every object the stream hands out for a track, over every quality. */
async function streamKeys(trackId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const quality of [undefined, '128', '192', '320']) {
    const answer = await station.http.inject({
      method: 'GET',
      url: `/v1/tracks/${trackId}/stream${quality ? `?quality=${quality}` : ''}`,
      headers: headers(buyer),
    });
    expect(answer.statusCode, answer.body).toBe(302);
    keys.add(keyOf(String(answer.headers.location)));
  }
  return keys;
}

describe('a purchased download', () => {
  it('of an uploaded track is its master, which no stream link reaches', async () => {
    const [uploaded] = artist.trackIds;
    const url = await downloadUrl(uploaded);
    expect(keyOf(url)).toBe(`tracks/${uploaded}/master.wav`);
    const file = await station.http.inject({ method: 'GET', url: path(url) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(master)).toBe(true);

    const streamed = await streamKeys(uploaded);
    expect(streamed).not.toContain(keyOf(url));
    for (const key of streamed) expect((await station.blobs.get(key)).equals(master)).toBe(false);
  });

  it('of a track without a master is a download rendition under its own key, not the stream’s object', async () => {
    const plain = artist.trackIds[1];
    const url = await downloadUrl(plain);
    const key = keyOf(url);
    expect(key).toMatch(new RegExp(`^downloads/${plain}/[0-9a-f]{16}\\.mp3$`));
    expect(await streamKeys(plain)).not.toContain(key);
    const file = await station.http.inject({ method: 'GET', url: path(url) });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(`audio of ${plain}`);
    // Made once: a second download names the same file.
    expect(keyOf(await downloadUrl(plain))).toBe(key);
  });
});
