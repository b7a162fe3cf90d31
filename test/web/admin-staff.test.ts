/**
 * Issue 17's staff journey in a real browser: a super_admin makes a signed-up listener an admin (the API),
 * who sets up their authenticator from the admin login card (password sign-in, the otpauth QR code, a code
 * confirmed) and then logs in at /admin with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/auth/totp.js';
import { authHeaders, buildTestStation, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { ORIGIN, ensureWebBuild, launchBrowser, portOf, seriousViolations, type Browser } from './support.js';

describe('a new staff member', () => {
  let station: TestStation;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    station = await buildTestStation();
    browser = await launchBrowser(portOf(await station.http.listen({ port: 0, host: '127.0.0.1' })));
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await station?.destroy();
  });

  it('is made admin by a super_admin, enrols TOTP with the QR code and logs in at /admin', async () => {
    const email = `new-staff-${Date.now()}@example.com`;
    const user = await signupListener(station, email);
    const superAdmin = await staffLogin(station);
    const promoted = await station.http.inject({ method: 'PATCH', url: `/v1/admin/users/${user.userId}/role`, headers: authHeaders(superAdmin), payload: { role: 'admin' } });
    expect(promoted.statusCode, promoted.body).toBe(200);

    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${ORIGIN}/admin`);
    await page.getByRole('button', { name: 'New staff? Set up your authenticator' }).click();
    const start = page.getByRole('form', { name: 'Start two-factor enrolment' });
    await start.getByLabel('Work e-mail').fill(email);
    await start.getByLabel('Password').fill('listener-password');
    await start.getByRole('button', { name: 'Show QR code' }).click();

    const qr = page.getByRole('img', { name: 'QR code of your authenticator secret' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    expect(await qr.getAttribute('data-otpauth')).toContain(`secret=${secret}`);
    expect(await seriousViolations(page)).toEqual([]);
    const confirmForm = page.getByRole('form', { name: 'Confirm two-factor enrolment' });
    await confirmForm.getByLabel('Authenticator code').fill(totpCode(secret, Date.now()));
    await confirmForm.getByRole('button', { name: 'Confirm' }).click();

    const login = page.getByRole('form', { name: 'Staff login' });
    await login.waitFor();
    await login.getByLabel('Work e-mail').fill(email);
    await login.getByLabel('Password').fill('listener-password');
    // The confirming code is spent; the next 30 s step's code is accepted (one step of drift).
    await login.getByLabel('Authenticator code').fill(totpCode(secret, Date.now() + 30_000));
    await login.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(await page.getByTestId('role').textContent()).toBe('admin');
    expect(errors).toEqual([]);
  });
});
