/**
 * Issue 17's integrator journey in a real browser: open a developer account in the portal, create a test key
 * (shown once, with a copy button), call the sandbox's /sandbox/v1/tracks with the client library (clients/js)
 * using that key, see the usage against the quota, register a webhook to a receiver this test runs on loopback
 * (its secret shown once) and watch the delivery log: a first attempt the receiver refuses, then the retry it
 * accepts, signed with that secret. Then an OAuth app with its client id and secret. Every page is screenshotted
 * at desktop and phone size and checked with axe.
 *
 * The integrator is a plain listener: the developer account adds the webhook scopes to its role (contract.md,
 * "Accounts and onboarding": platform scopes, never a station scope).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStationClient } from '../../clients/js/src/index.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { seedSandboxCatalog } from '../../src/demo/seed-sandbox.js';
import { pollUntil } from '../helpers/poll.js';
import { authHeaders, signupListener, staffLogin, verifiedListener, verifyAddress } from '../helpers/station.js';
import { ORIGIN, screenshots, seriousViolations, stationAndBrowserForSuite } from './support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

describe('the developer portal', () => {
  // A retry within 2 s instead of 30 (full jitter all the same): the delivery log's retry is waited for in real
  // time. Nothing here renders or trains: the FakeEngine.
  const suite = stationAndBrowserForSuite({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' }, { fakeEngine: true, webhooks: { retry: { baseMs: 2_000 } } });
  const received: Received[] = [];
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    await seedDemoCatalog(suite.station.database.db);
    await seedSandboxCatalog(suite.station.database.db);
    // The integrator's endpoint: refuses the first delivery (so the log shows a retry), accepts the rest.
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answered = received.length === 0 ? 503 : 200;
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'busy');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/station`;
  });
  afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

  async function checkPage(name: string) {
    const { page } = suite.browser;
    expect(await seriousViolations(page), name).toEqual([]);
    await screenshots(page, `developers-${name}`);
  }

  it('opens an account, calls the sandbox with a test key, and sees a webhook delivered', async () => {
    const { station, browser } = suite;
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    const email = `integrator-${Date.now()}@example.com`;
    await signupListener(station, email);
    await verifyAddress(station, email);

    await page.goto(`${ORIGIN}/developers`);
    await page.getByRole('heading', { name: 'Station developer portal' }).waitFor();
    await checkPage('sign-in');
    const login = page.getByRole('form', { name: 'Log in' });
    await login.getByLabel('E-mail').fill(email);
    await login.getByLabel('Password').fill('listener-password');
    await login.getByRole('button', { name: 'Log in' }).click();

    // The developer account, with the sandbox's base address.
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('button', { name: 'Open a developer account' }).click();
    await page
      .getByTestId('developer-account')
      .getByText(/^Open since/)
      .waitFor();
    await page.locator('dl.facts').getByText('http://station.test/sandbox/v1', { exact: true }).waitFor();
    await checkPage('overview');

    // A test key, shown once, with a copy button.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'API keys' }).click();
    const create = page.getByRole('form', { name: 'Create an API key' });
    await create.getByLabel('Key name').fill('sandbox trial');
    await create.getByRole('radio', { name: /^Test: the sandbox/ }).check();
    expect(await create.getByRole('checkbox', { name: 'tracks:read' }).isChecked()).toBe(true);
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: /Your new test key “sandbox trial”/ });
    const key = (await shown.getByTestId('secret').textContent())!;
    expect(key).toMatch(/^stn_test_/);
    // http://station.test is not a secure context (no Clipboard API): the selection is copied instead.
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('status').getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate<string>('String(getSelection())')).toBe(key);
    await checkPage('key-shown-once');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /sandbox trial/ });
    await row.getByText('test (sandbox)').waitFor();
    expect(await page.getByText(key).count()).toBe(0); // never shown again
    await checkPage('keys');

    // The client library calls the sandbox with the key.
    const address = station.http.server.address() as AddressInfo;
    const client = createStationClient({ baseUrl: `http://127.0.0.1:${address.port}`, apiKey: key, sandbox: true });
    const { data, error, response } = await client.GET('/v1/tracks', { params: { query: { limit: 5 } } });
    expect(error).toBeUndefined();
    expect(new URL(response.url).pathname).toBe('/sandbox/v1/tracks');
    expect(data!.data.length).toBeGreaterThan(0);

    // Usage against the quota counts the key's requests.
    await sections.getByRole('link', { name: 'Usage' }).click();
    const testUsage = page.getByTestId('usage-test-keys-sandbox-');
    await testUsage.waitFor();
    expect(await testUsage.textContent()).toMatch(/^[1-9]\d* of 100,000 requests/);
    await checkPage('usage');

    // A webhook to the local receiver: its secret once, then the delivery log of an event.
    await sections.getByRole('link', { name: 'Webhooks' }).click();
    const register = page.getByRole('form', { name: 'Register a webhook' });
    await register.getByLabel('Endpoint URL').fill(receiverUrl);
    await register.getByRole('checkbox', { name: /^artist\.verified/ }).check();
    await register.getByRole('button', { name: 'Register webhook' }).click();
    const secretBox = page.getByRole('region', { name: `Signing secret of ${receiverUrl}` });
    const secret = (await secretBox.getByTestId('secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await checkPage('webhook-secret');
    await secretBox.getByRole('button', { name: 'Done' }).click();

    // An admin verifies an artist: artist.verified reaches every webhook.
    const owner = await verifiedListener(station);
    const artist = await station.http.inject({
      method: 'POST',
      url: '/v1/artists',
      headers: authHeaders(owner),
      payload: { name: 'Pier Nine', genre: 'ambient' },
    });
    expect(artist.statusCode, artist.body).toBe(201);
    const admin = await staffLogin(station);
    const verified = await station.http.inject({ method: 'POST', url: `/v1/admin/artists/${artist.json().id}/verify`, headers: authHeaders(admin) });
    expect(verified.statusCode, verified.body).toBe(200);

    const hook = page.getByRole('article', { name: `Webhook ${receiverUrl}` });
    await hook.getByRole('button', { name: /Delivery log/ }).click();
    const log = hook.getByTestId('deliveries');
    // The refused first attempt is logged as retrying (answer 503), then the retry succeeds (full jitter, within 2 s here).
    await log.getByRole('row', { name: /artist\.verified.*retrying.*503/ }).waitFor({ timeout: 30_000 });
    await log.scrollIntoViewIfNeeded();
    await checkPage('webhook-retrying');
    await log.getByRole('row', { name: /artist\.verified.*succeeded.*200/ }).waitFor({ timeout: 60_000 });
    await log.scrollIntoViewIfNeeded();
    await checkPage('webhook-delivered');

    // What the receiver got: the same delivery twice, signed with the secret shown once.
    await pollUntil(
      'two attempts received',
      async () => received.length,
      (n) => n >= 2,
      10_000,
    );
    const delivered = received.find((r) => r.answered === 200)!;
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'artist.verified', data: { artist_id: artist.json().id } });
    expect(delivered.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivered.body).digest('hex')}`);
    expect(delivered.headers['x-webhook-id']).toBe(received[0].headers['x-webhook-id']);

    // An OAuth app: client id and secret shown once.
    await sections.getByRole('link', { name: 'OAuth apps' }).click();
    const app = page.getByRole('form', { name: 'Register an OAuth app' });
    await app.getByLabel('App name').fill('Night Drive Companion');
    await app.getByLabel('Redirect URIs').fill('http://localhost:8788/callback');
    await app.getByRole('button', { name: 'Register app' }).click();
    await page.getByRole('region', { name: /Client id of “Night Drive Companion”/ }).waitFor();
    const clientSecret = (await page
      .getByRole('region', { name: /Client secret of “Night Drive Companion”/ })
      .getByTestId('secret')
      .textContent())!;
    expect(clientSecret.length).toBeGreaterThan(20);
    await checkPage('app-shown-once');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('article', { name: 'App Night Drive Companion' }).waitFor();
    expect(await page.getByText(clientSecret).count()).toBe(0);
    await checkPage('apps');
    expect(errors).toEqual([]);
  }, 300_000);

  it('gives a listener-integrator the webhook scopes with the developer account, and no station scope', async () => {
    const { station, browser } = suite;
    const { page } = browser;
    const listener = await verifiedListener(station);
    await page.goto(`${ORIGIN}/developers`);
    const logout = page.getByRole('button', { name: 'Log out' });
    const login = page.getByRole('form', { name: 'Log in' });
    // The page restores the last test's login from its refresh cookie first: wait for either state.
    await logout.or(login).first().waitFor();
    if (await logout.isVisible()) await logout.click();
    await login.getByLabel('E-mail').fill(listener.email);
    await login.getByLabel('Password').fill('listener-password');
    await login.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Open a developer account' }).click();
    await page.getByTestId('developer-account').waitFor();
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('form', { name: 'Register a webhook' }).waitFor();
    await checkPage('webhooks-listener');
    // Keys offer the listener's scopes and the account's webhook scopes, never a station scope beyond station:read.
    await sections.getByRole('link', { name: 'API keys' }).click();
    const scopes = await page
      .getByRole('group', { name: 'Scopes' })
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => box.parentElement?.textContent?.trim()));
    expect(scopes).toContain('webhooks:write');
    expect(scopes).toContain('tracks:read');
    expect(scopes.filter((scope) => scope?.startsWith('station:') && scope !== 'station:read')).toEqual([]);
  }, 120_000);
});
