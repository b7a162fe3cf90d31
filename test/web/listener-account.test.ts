/**
 * The listener's account in a real browser against the real server: after sign-up the player shows that the
 * address is not verified and mails a new link on request; the link's page verifies it. The refresh token is
 * never in reach of script (an HttpOnly cookie, nothing in localStorage), yet a reload keeps the login; a login
 * an earlier version left in localStorage moves into the cookie; logging out ends it for good.
 */
import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { ORIGIN, seriousViolations, stationAndBrowserForSuite, type Browser } from './support.js';

describe('the listener account in the browser', () => {
  const suite = stationAndBrowserForSuite();

  async function linkMailedTo(email: string): Promise<string> {
    await suite.station.auth.drain();
    const [mail] = await suite.station.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email))
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(1);
    const link = /http:\/\/station\.test(\/verify-email\?token=\S+)/.exec(mail?.textBody ?? '');
    expect(link, mail?.textBody).not.toBeNull();
    return link![1];
  }
  const script = (page: Browser['page']) =>
    page.evaluate<{ storage: string; cookies: string }>('({ storage: JSON.stringify(localStorage), cookies: document.cookie })');

  it('shows the unverified address with a resend button, verifies it from the link, and keeps the login through the cookie only', async () => {
    const { page } = suite.browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const email = `browser-account-${Date.now()}@example.com`;
    await page.goto(`${ORIGIN}/`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Display name').fill('Account Listener');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('listener-password');
    await page.getByRole('button', { name: 'Create account' }).click();

    const status = page.getByTestId('email-status');
    await status.getByText(/is not verified yet/).waitFor();
    expect(await status.textContent()).toContain(email);
    await status.getByRole('button', { name: 'Send a new link' }).click();
    await status.getByText('A new link is on its way.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Script reaches no refresh token: not in storage, and the cookie is HttpOnly.
    const reachable = await script(page);
    expect(reachable.storage).not.toMatch(/rt_|refresh/i);
    expect(reachable.cookies).not.toContain('platform_refresh_token');
    const cookies = await suite.browser.context.cookies(`${ORIGIN}/v1/auth/refresh`);
    expect(cookies.find((c) => c.name === 'platform_refresh_token')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth/refresh' });

    // A reload restores the login through the cookie.
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await status.getByText(/is not verified yet/).waitFor();

    // The mailed link's page verifies the address; the player then says so.
    await page.goto(`${ORIGIN}${await linkMailedTo(email)}`);
    await page.getByText('Your e-mail address is verified.').waitFor();
    await page.getByRole('button', { name: 'Go to the player' }).click();
    await status.getByText(`E-mail address ${email} verified.`).waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    expect(errors).toEqual([]);
  }, 180_000);

  it('moves a login an earlier version kept in localStorage into the cookie', async () => {
    const { page } = suite.browser;
    const email = `browser-legacy-${Date.now()}@example.com`;
    const signup = await suite.station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email, password: 'listener-password', display_name: 'Legacy Listener' },
    });
    const body = signup.json();
    const legacy = { token: body.token, csrf: body.csrf_token, expiresIn: body.expires_in, refreshToken: body.refresh_token, user: body.user };
    await page.evaluate(`localStorage.setItem('station.listener.login', ${JSON.stringify(JSON.stringify(legacy))})`);
    await page.reload();
    await page.getByText('Legacy Listener').waitFor();
    expect((await script(page)).storage).not.toContain('station.listener.login');
    await page.reload();
    await page.getByText('Legacy Listener').waitFor();
    // The stored token was spent moving into the cookie: presenting it again is refused (a replay).
    const replay = await suite.station.http.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: body.refresh_token } });
    expect(replay.statusCode).toBe(401);
  }, 120_000);
});
