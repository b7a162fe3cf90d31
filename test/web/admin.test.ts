/**
 * The admin panel in a real browser against the real server: TOTP login, the inline ratio-sum error and
 * then a good save, the radio switched off and on, a tiny training job whose loss curve grows, a registry
 * track flagged and found in the safety review queue; no serious or critical axe violations; screenshots.
 * Then a developer: training, dataset and webhooks, and neither the radio switch nor a job's cancel button.
 */
import { describe, expect, it } from 'vitest';
import { registryTracks } from '../../src/infra/db/schema/index.js';
import { newTotpSecret, totpCode } from '../../src/auth/totp.js';
import { pollUntil } from '../helpers/poll.js';
import { ADMIN } from '../helpers/station.js';
import { ORIGIN, playingStationAndBrowserForSuite, screenshots, seriousViolations, type Browser } from './support.js';

/** Starts an audio training job long enough to watch (400 epochs) from the Training section; returns its loss curve's point count. */
async function startLongAudioJob(page: Browser['page']): Promise<() => Promise<number>> {
  const start = page.getByRole('form', { name: 'Start a training job' });
  await pollUntil(
    'a snapshot to train on',
    () => start.getByLabel('Dataset snapshot').locator('option').count(),
    (n) => n > 0,
    30_000,
  );
  await start.getByLabel('Model type').selectOption('audio');
  await start.getByLabel('Epochs').fill('400');
  await start.getByRole('button', { name: 'Start training' }).click();
  const chart = page.locator('figure.chart', { has: page.getByText('Loss', { exact: true }) });
  return async () => Number(await chart.getAttribute('data-points'));
}

/** The staff login form, with this 30 s window's TOTP code; resolves on the Overview. */
async function logIn(page: Browser['page'], staff: { email: string; password: string; totpSecret: string }): Promise<void> {
  await page.getByLabel('Work e-mail').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByLabel('Authenticator code').fill(totpCode(staff.totpSecret, Date.now()));
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

describe('the admin panel', () => {
  // The panel, not the engine: the FakeEngine renders, trains and judges, an epoch every 100 ms so that a
  // 400-epoch job runs long enough (40 s) to watch its loss curve grow and cancel it.
  const suite = playingStationAndBrowserForSuite({ fakeEngine: { epochMs: 100 } });

  it('logs in with TOTP and runs the station: config, radio switch, training, safety review', async () => {
    const { station, browser } = suite;
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const section = async (name: string) => {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
    };

    await page.goto(`${ORIGIN}/admin`);
    await logIn(page, ADMIN);
    expect(await page.getByTestId('role').textContent()).toBe('super_admin');
    await page.getByTestId('status').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'admin');

    // Configuration: the ratio sum is checked in the page before anything is sent.
    await section('Radio & config');
    const form = page.getByRole('form', { name: 'Station configuration' });
    await form.getByLabel('Catalog ratio').fill('0.5');
    await form.getByLabel('AI generation ratio').fill('0.6');
    await form.getByText('The ratios must sum to 1.0 (now 1.1)').waitFor();
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().endsWith('/station/v1/admin/config')) patches += 1;
    });
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await form.getByText('Fix the fields marked above; nothing was sent.').waitFor();
    expect(patches).toBe(0);
    await form.getByLabel('Catalog ratio').fill('0.4');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await form.getByText(/^Saved\./).waitFor();
    expect(patches).toBe(1);
    const saved = await station.station.admin.config.get();
    expect(saved).toMatchObject({ catalog_ratio: 0.4, ai_generation_ratio: 0.6 });
    expect(await seriousViolations(page)).toEqual([]);

    // The radio switch: off with a reason, then on again.
    const state = page.getByTestId('radio-state');
    await page.getByLabel('Reason for going off air').fill('browser test maintenance');
    await page.getByRole('button', { name: 'Disable radio' }).click();
    await state.getByText('off air').waitFor();
    expect(await state.textContent()).toContain('browser test maintenance');
    expect((await station.station.admin.config.get()).radio_enabled).toBe(false);
    await page.getByRole('button', { name: 'Enable radio' }).click();
    await state.getByText('on air').waitFor();
    expect((await station.station.admin.config.get()).radio_enabled).toBe(true);

    // Training: a snapshot, a long-enough audio job, its loss curve growing live, then cancelled.
    await section('Training & models');
    await page.getByRole('button', { name: 'Take a dataset snapshot' }).click();
    const points = await startLongAudioJob(page);
    const first = await pollUntil('the loss curve to start', points, (n) => n >= 2, 120_000);
    await pollUntil('the loss curve to grow', points, (n) => n > first, 120_000);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'admin-training');
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await pollUntil(
      'the job to be gone',
      () => station.station.training.service.list({}).then((r) => r.data.filter((j) => j.status === 'running').length),
      (n) => n === 0,
      30_000,
    );

    // The registry: flag an AI track, then find it in the safety review queue.
    await pollUntil(
      'an AI track in the registry',
      () =>
        station.database.db
          .select()
          .from(registryTracks)
          .then((rows) => rows.length),
      (n) => n > 0,
      240_000,
    );
    await section('Registry');
    const row = page.locator('tr[data-track-id]').first();
    await row.waitFor();
    const trackId = await row.getAttribute('data-track-id');
    await row.getByRole('button', { name: /Flag for review/ }).click();
    await row.getByText('in review').waitFor();
    await section('Safety review');
    const queued = page.locator(`tr[data-track-id="${trackId}"]`);
    await queued.waitFor();
    expect(await queued.textContent()).toContain('flagged by an admin');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 600_000);

  it('shows a developer training, dataset and webhooks, but no radio switch and no way to cancel a job', async () => {
    const { station, browser } = suite;
    const { page } = browser;
    const developer = { email: 'dev@station.test', password: 'developer-password', totpSecret: newTotpSecret() };
    await station.auth.createUser({ ...developer, role: 'developer', displayName: 'Dev' });

    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(page, developer);
    expect(await page.getByTestId('role').textContent()).toBe('developer');
    const links = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Overview', 'Dataset', 'Training & models', 'Webhooks']);

    // An admin-only section's address shows the first allowed one instead.
    await page.goto(`${ORIGIN}/admin/radio`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(await page.getByRole('button', { name: /radio/i }).count()).toBe(0);

    // Training: the developer starts a job and follows it, but only an admin may cancel it.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Training & models' }).click();
    await pollUntil('the loss curve to start', await startLongAudioJob(page), (n) => n >= 2, 120_000);
    expect(await page.getByRole('button', { name: 'Cancel job' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const running = (await station.station.training.service.list({})).data.filter((j) => j.status === 'running');
    expect(running).toHaveLength(1);
    await station.station.training.service.cancel(running[0].job_id);
  }, 300_000);
});
