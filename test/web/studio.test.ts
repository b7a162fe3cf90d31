/**
 * Issue 17's artist journey in a real browser, from a fresh start: sign up in the studio, confirm the address from
 * the mailed link, create the artist profile, have a bad file refused with a clear reason, upload a real audio file
 * made by the engine (progress, then the probe's findings), put a release on sale at a price, create a capsule,
 * and see a listener's stream in the analytics; then the payout onboarding link. Every page is screenshotted at
 * desktop and phone size and checked with axe.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoMasterRequest } from '../../src/demo/seed-audio.js';
import { emptyAudioModel } from '../../src/engine/compose/audio-model.js';
import { generateTrack } from '../../src/engine/music/pipeline.js';
import { pollUntil } from '../helpers/poll.js';
import { verifiedListener, verifyAddress } from '../helpers/station.js';
import { ORIGIN, screenshots, seriousViolations, stationAndBrowserForSuite } from './support.js';

describe('the artist studio', () => {
  // The demo store's setting: payout onboarding and sales go through the built-in sandbox processor.
  // The uploaded MP3 is the engine's own (engineMp3, in this process); the station's engine would only extract
  // the upload's style features, which no page shows: the FakeEngine.
  const suite = stationAndBrowserForSuite({ STATION_STORE_SANDBOX_LIVE: 'true' }, { fakeEngine: true });
  const files = mkdtempSync(join(tmpdir(), 'studio-files-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));

  /** A short track composed, rendered and encoded to MP3 by the radio's own engine. */
  async function engineMp3(): Promise<string> {
    const request = demoMasterRequest({ slug: 'studio-journey', genre: 'electronic', subgenre: 'ambient', mood: ['calm'], bpm: 96 });
    const track = await generateTrack({ ...request, maxDurationSec: 4, quality: '128kbps', model: emptyAudioModel(), modelVersion: 'untrained' });
    const path = join(files, 'first-light.mp3');
    writeFileSync(path, track.mp3!);
    return path;
  }

  async function checkPage(name: string) {
    const { page } = suite.browser;
    expect(await seriousViolations(page), name).toEqual([]);
    await screenshots(page, `studio-${name}`);
  }

  it('takes a new artist from sign-up to a stream in the analytics', async () => {
    const { page } = suite.browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const audio = await engineMp3();
    const email = `studio-artist-${Date.now()}@example.com`;

    await page.goto(`${ORIGIN}/studio`);
    await page.getByRole('heading', { name: 'Station artist studio' }).waitFor();
    await checkPage('sign-in');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const signup = page.getByRole('form', { name: 'Sign up' });
    await signup.getByLabel('Display name').fill('Studio Artist');
    await signup.getByLabel('E-mail').fill(email);
    await signup.getByLabel('Password').fill('artist-password');
    await signup.getByRole('button', { name: 'Create account' }).click();

    // A new account: the profile page says the address needs confirming first.
    await page.getByRole('heading', { level: 1, name: 'Artist profile' }).waitFor();
    await page.getByText('Confirm your e-mail address first.').waitFor();
    await checkPage('profile-unverified');
    await verifyAddress(suite.station, email);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Artist profile' }).waitFor();
    expect(await page.getByText('Confirm your e-mail address first.').count()).toBe(0);

    const create = page.getByRole('form', { name: 'Create artist profile' });
    await create.getByLabel('Artist name').fill('Harbour Static');
    await create.getByLabel('Genre').fill('electronic');
    await create.getByLabel('Country').fill('PT');
    await create.getByLabel('Bio').fill('Tape loops from the docks.');
    await create.getByRole('button', { name: 'Create artist profile' }).click();
    await page
      .getByTestId('verification')
      .getByText(/Unverified/)
      .waitFor();
    await checkPage('profile');

    // Tracks: a file that is not audio is refused, with the reason; the engine's MP3 goes through.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Tracks' }).click();
    const upload = page.getByRole('form', { name: 'Upload a track' });
    const notAudio = join(files, 'notes.wav');
    writeFileSync(notAudio, 'These are liner notes, not audio.\n'.repeat(40));
    await upload.getByLabel('Audio file').setInputFiles(notAudio);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload
      .getByRole('alert')
      .getByText(/not audio the studio takes/)
      .waitFor();
    await checkPage('tracks-refused');

    await upload.getByLabel('Audio file').setInputFiles(audio);
    await upload.getByLabel('Title').fill('First Light');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('“First Light” is published.').waitFor({ timeout: 120_000 });
    const findings = page.getByRole('article', { name: 'Upload First Light' }).getByTestId('findings');
    const found = (await findings.textContent()) ?? '';
    expect(found).toMatch(/Duration0:0[3-4]/);
    expect(found).toMatch(/Loudness-?\d+\.\d LUFS/);
    expect(found).toMatch(/FormatMP3/);
    await page.getByRole('article', { name: 'First Light', exact: true }).waitFor();
    await findings.scrollIntoViewIfNeeded();
    await checkPage('tracks');

    // Releases and prices: the track sold as a single.
    await sections.getByRole('link', { name: 'Releases & prices' }).click();
    const sale = page.getByRole('form', { name: 'Put a release on sale' });
    await sale.getByLabel('Release title').fill('First Light (single)');
    await sale.getByLabel('First Light', { exact: true }).check();
    await sale.getByLabel('Price').fill('2.49');
    await sale.getByLabel('Currency').selectOption('eur');
    await sale.getByRole('button', { name: 'Put on sale' }).click();
    await sale.getByText(/“First Light \(single\)” is on sale at/).waitFor();
    await page
      .getByRole('article', { name: 'First Light (single)' })
      .getByText(/2[.,]49/)
      .waitFor();
    await checkPage('releases');

    // A capsule for followers.
    await sections.getByRole('link', { name: 'Capsules' }).click();
    const capsule = page.getByRole('form', { name: 'New capsule' });
    await capsule.getByLabel('Title').fill('Dock sessions');
    await capsule.getByLabel('Teaser').fill('The loop before the loop');
    await capsule.getByLabel('Hidden message').fill('Recorded at 4 a.m. on pier 9.');
    await capsule.getByLabel('Hidden track').selectOption({ label: 'First Light' });
    await capsule.getByLabel(/^Followers/).check();
    await capsule.getByRole('button', { name: 'Create capsule' }).click();
    const card = page.getByRole('article', { name: 'Capsule Dock sessions' });
    await card.getByText(/Recorded at 4 a\.m\. on pier 9\./).waitFor();
    expect(await card.textContent()).toContain('track: First Light');
    await checkPage('capsules');

    // A listener streams the track; the analytics show it.
    const listener = await verifiedListener(suite.station);
    const search = await suite.station.http.inject({
      method: 'GET',
      url: '/v1/tracks?q=first%20light',
      headers: { authorization: `Bearer ${listener.token}` },
    });
    const track = (search.json().data as Array<{ id: string; title: string }>).find((t) => t.title === 'First Light')!;
    const stream = await suite.station.http.inject({
      method: 'GET',
      url: `/v1/tracks/${track.id}/stream`,
      headers: { authorization: `Bearer ${listener.token}` },
    });
    expect(stream.statusCode, stream.body).toBeLessThan(400);
    await sections.getByRole('link', { name: 'Analytics' }).click();
    await pollUntil(
      'the stream in the analytics',
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByTestId('streams-total').textContent();
      },
      (total) => total === '1',
      20_000,
    );
    await page.locator('figure.chart[data-points="1"]').getByText('Top tracks').waitFor();
    await checkPage('analytics');

    // Payouts: the onboarding link of the sandbox processor.
    await sections.getByRole('link', { name: 'Payouts' }).click();
    await page.getByRole('button', { name: 'Set up payouts' }).click();
    const onboarding = page.getByRole('link', { name: 'Continue to the sandbox processor' });
    await onboarding.waitFor();
    expect(await onboarding.getAttribute('href')).toMatch(/\/v1\/store\/sandbox\/onboarding\//);
    await checkPage('payouts');

    // Edit a track, then take it down with a reason: it leaves the published list (and the catalog).
    await sections.getByRole('link', { name: 'Tracks' }).click();
    const row = page.getByRole('article', { name: 'First Light', exact: true });
    await row.getByRole('button', { name: 'Edit First Light' }).click();
    const edit = row.getByRole('form', { name: 'Edit First Light' });
    await edit.getByLabel('ISRC').fill('PTXYZ2600001');
    await checkPage('track-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await row.getByText(/ISRC PTXYZ2600001/).waitFor();
    await row.getByRole('button', { name: 'Take down First Light' }).click();
    const takedown = row.getByRole('form', { name: 'Take down First Light' });
    await takedown.getByLabel('Reason').fill('Re-releasing a new master');
    await checkPage('track-takedown');
    await takedown.getByRole('button', { name: 'Take down for good' }).click();
    await page.getByRole('heading', { name: 'Published tracks (0)' }).waitFor();
    expect(
      (await suite.station.http.inject({ method: 'GET', url: `/v1/tracks/${track.id}`, headers: { authorization: `Bearer ${listener.token}` } })).statusCode,
    ).toBe(404);
    expect(errors).toEqual([]);
  }, 300_000);
});
