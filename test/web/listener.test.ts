/**
 * The listener player in a real browser against the real server: sign up, press Play and hear the stream
 * advance, see the card change with the track, open the transparency panel of an AI track, send feedback;
 * no serious or critical axe violations; screenshots at desktop and phone size.
 */
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/poll.js';
import { ORIGIN, playingStationAndBrowserForSuite, screenshots, seriousViolations } from './support.js';

describe('the listener player', () => {
  // The player, not the engine's music: the FakeEngine's tracks are real MP3s of the asked length (a tone), so
  // the stream, the track changes and the AI track's transparency panel are the station's own.
  const suite = playingStationAndBrowserForSuite({ fakeEngine: true });

  it('signs up, plays the stream, follows the track changes, explains an AI track and takes feedback', async () => {
    const { browser } = suite;
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${ORIGIN}/`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Display name').fill('Browser Listener');
    await page.getByLabel('E-mail').fill(`browser-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('listener-password');
    await page.getByRole('button', { name: 'Create account' }).click();

    // Play: the audio element's clock runs on the live stream.
    await page.getByRole('button', { name: /^Play/ }).click();
    const currentTime = () => page.evaluate<number>("document.querySelector('audio').currentTime");
    await pollUntil('audio currentTime advancing', currentTime, (t) => t > 1.5, 60_000);

    // The now-playing card follows the track changes pushed over the WebSocket.
    const card = page.locator('article.now-playing');
    const trackId = () => card.getAttribute('data-track-id');
    const first = await pollUntil('a track on the card', trackId, (id) => !!id, 30_000);
    // Layout shifts from here on (Cumulative Layout Shift): a track change must not move the page.
    await page.evaluate(`window.__shift = 0; new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
    }).observe({ type: 'layout-shift' });`);
    await pollUntil('the card changing track', trackId, (id) => !!id && id !== first, 60_000);
    expect(await page.evaluate<number>('window.__shift')).toBeLessThan(0.05);
    expect(await page.getByTestId('listener-count').textContent()).toMatch(/^\d+$/);

    // An AI track: its badge opens the transparency panel.
    await pollUntil(
      'an AI track on air',
      () => card.getAttribute('data-origin'),
      (o) => o === 'ai_generated',
      240_000,
    );
    await card.getByRole('button', { name: /AI-generated/ }).click();
    const panel = page.getByRole('dialog', { name: 'How this track was made' });
    await panel.waitFor({ state: 'visible' });
    await panel.getByText('Training data', { exact: true }).waitFor();
    expect(await panel.textContent()).toMatch(/audio-/);
    expect(await panel.getByRole('link', { name: /AI policy/ }).getAttribute('href')).toMatch(/^http/);
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'hidden' });

    // Feedback on the track on air (tracks are 4 to 10 s long here: if the card changed under the click, again).
    const like = card.getByRole('button', { name: 'Like', exact: true });
    await pollUntil(
      'feedback acknowledged',
      async () => {
        await like.click();
        return card
          .getByText(/Thanks/)
          .waitFor({ timeout: 3000 })
          .then(
            () => true,
            () => false,
          );
      },
      (acknowledged) => acknowledged,
      30_000,
    );

    // The stream kept playing all along.
    const before = await currentTime();
    await pollUntil('audio still advancing', currentTime, (t) => t > before + 1, 20_000);

    expect(await seriousViolations(page)).toEqual([]);
    const shots = await screenshots(page, 'listener');
    expect(shots).toHaveLength(2);
    expect(errors).toEqual([]);
  }, 420_000);
});
