/**
 * Issue 17's staff journey in a real browser: a super_admin makes a signed-up listener an admin (the Users section),
 * who sets up their authenticator from the admin login card (password sign-in, the otpauth QR code, a code
 * confirmed) and then logs in at /admin with it.
 */
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../src/auth/totp.js';
import { pollUntil } from '../helpers/poll.js';
import { ADMIN, signupListener } from '../helpers/station.js';
import { ORIGIN, seriousViolations, stationAndBrowserForSuite } from './support.js';

describe('a new staff member', () => {
  const suite = stationAndBrowserForSuite();

  it('is made admin by a super_admin, enrols TOTP with the QR code and logs in at /admin', async () => {
    const email = `new-staff-${Date.now()}@example.com`;
    const user = await signupListener(suite.station, email);
    const { page } = suite.browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    // The super_admin gives the role from the Users section.
    await page.goto(`${ORIGIN}/admin`);
    const adminLogin = page.getByRole('form', { name: 'Staff login' });
    await adminLogin.getByLabel('Work e-mail').fill(ADMIN.email);
    await adminLogin.getByLabel('Password').fill(ADMIN.password);
    await adminLogin.getByLabel('Authenticator code').fill(totpCode(ADMIN.totpSecret, Date.now()));
    await adminLogin.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    const find = page.getByRole('form', { name: 'Find users' });
    await find.getByLabel('Search e-mail or name').fill(email);
    await find.getByRole('button', { name: 'Search' }).click();
    const selector = page.getByLabel(`Role of ${email}`);
    await selector.waitFor();
    await selector.selectOption('admin');
    await pollUntil(
      'the role saved',
      async () => (await suite.station.auth.credentials.authenticateBearer(user.token)).role,
      (role) => role === 'admin',
      10_000,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Log out' }).click();

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
    // The panel opens on the section of the current path (/admin/users, where the super_admin left it).
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await pollUntil(
      'the role shown',
      () => page.getByTestId('role').textContent(),
      (role) => role === 'admin',
      10_000,
    );
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
