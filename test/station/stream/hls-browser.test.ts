/**
 * The listener player on HLS in a real browser (Debian's chromium, no native HLS): it loads hls.js on
 * demand and plays hls_url, the audio clock advancing; the playlist, not the continuous stream, is what it
 * fetched. And when HLS fails (its playlist refused), it falls back to the continuous stream and plays on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../helpers/poll.js';
import { authHeaders, signupListener, staffLogin } from '../../helpers/station.js';
import { buildTrainedStation } from '../../helpers/trained-station.js';
import { ORIGIN, ensureWebBuild, launchBrowser, portOf, type Browser } from '../../web/support.js';

type Station = Awaited<ReturnType<typeof buildTrainedStation>>;

describe('the listener player on HLS', () => {
  let station: Station;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    station = await buildTrainedStation({ STATION_SCHEDULER_CYCLE_SEC: '1' }, { masters: 4, trackSec: 6, models: [], fakeEngine: true });
    const admin = authHeaders(await staffLogin(station));
    await station.http.inject({
      method: 'PATCH',
      url: '/station/v1/admin/config',
      headers: admin,
      payload: { catalog_ratio: 1, ai_generation_ratio: 0, generation_mode: 'catalog_only' },
    });
    expect((await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: admin })).statusCode).toBe(200);
    // The playlist exists (its first segments are out) before the browser asks for it.
    const listener = authHeaders(await signupListener(station));
    const hlsUrl: string = (await station.http.inject({ url: '/station/v1/radio/stream-info', headers: listener })).json().hls_url;
    await pollUntil(
      'the playlist to list three segments',
      async () => (await station.http.inject({ url: hlsUrl.replace(ORIGIN, '') })).body,
      (body) => (body.match(/#EXTINF/g) ?? []).length >= 3,
      60_000,
      250,
    );
    browser = await launchBrowser(portOf(await station.http.listen({ port: 0, host: '127.0.0.1' })));
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await station?.destroy();
  });

  async function signUpAndPlay(): Promise<void> {
    const { page } = browser;
    await page.goto(`${ORIGIN}/`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Display name').fill('HLS Listener');
    await page.getByLabel('E-mail').fill(`hls-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`);
    await page.getByLabel('Password').fill('listener-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: /^Play/ }).click();
  }

  const currentTime = () => browser.page.evaluate<number>("document.querySelector('audio').currentTime");
  const playback = () => browser.page.locator('.player-status').getAttribute('data-playback');

  it('plays hls_url through hls.js', async () => {
    const { page } = browser;
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await signUpAndPlay();
    await pollUntil('audio currentTime advancing', currentTime, (t) => t > 3, 60_000);
    expect(await playback()).toBe('hls.js');
    expect(requested).toContain('/station/v1/radio/hls/live.m3u8');
    expect(requested.some((path) => /^\/station\/v1\/radio\/hls\/\d+\.mp3$/.test(path))).toBe(true);
    expect(requested).not.toContain('/station/v1/radio/stream');
    expect(errors).toEqual([]);
  }, 120_000);

  it('falls back to the continuous stream when HLS fails', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.route('**/station/v1/radio/hls/**', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.getByRole('button', { name: /^Play/ }).click();
    await pollUntil('the player on the continuous stream', playback, (mode) => mode === 'continuous', 60_000);
    const from = await currentTime();
    await pollUntil('audio currentTime advancing', currentTime, (t) => t > from + 2, 60_000);
  }, 120_000);
});
