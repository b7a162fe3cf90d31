/**
 * The listener's journey through the platform pages in a real browser, from a fresh start: sign up, verify
 * the address from the mailed link, find an artist (search, then the artist page with its verified badge),
 * follow them and reveal a followers-only capsule, save and play a track (the platform stream), make a
 * playlist and reorder it from the keyboard and by drag and drop, buy a release through the sandbox processor and download a
 * track of it. Every page is screenshot at desktop and phone size and checked with axe; the layout does not
 * shift, and the page raises no script error.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albums, artists, mailOutbox, tracks } from '../../src/infra/db/schema/index.js';
import { totpCode } from '../../src/auth/totp.js';
import { ADMIN } from '../helpers/station.js';
import { headers, userWithRole } from '../platform/store-support.js';
import { ORIGIN, screenshots, seriousViolations, stationAndBrowserForSuite, type Browser } from './support.js';

/** A short, real audio file (16-bit PCM WAV, a 440 Hz tone) that the browser can play. */
function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

const ARTIST = { id: randomUUID(), slug: 'neon-tidewater', name: 'Neon Tidewater' };
const ALBUM = { id: randomUUID(), slug: 'run-the-grid', title: 'Run the Grid' };
const TRACKS = [
  { id: randomUUID(), title: 'Chrome Horizon' },
  { id: randomUUID(), title: 'Arcade Heart' },
  { id: randomUUID(), title: 'Harbour Lights' },
];

describe('the listener platform pages in the browser', () => {
  const suite = stationAndBrowserForSuite({ STATION_STORE_SANDBOX_LIVE: 'true' });

  /** A verified artist with an album of real audio on sale, and a capsule for followers. */
  async function seedCatalog() {
    const { station } = suite;
    const owner = await userWithRole(station, 'artist');
    const { db } = station.database;
    await db
      .insert(artists)
      .values({ ...ARTIST, genre: 'Synthwave', bio: 'Night drives on analogue synths.', ownerUserId: owner.userId, verified: true, verifiedAt: new Date() });
    await db.insert(albums).values({ ...ALBUM, artistId: ARTIST.id, type: 'album', genre: 'Synthwave', releaseYear: 2024 });
    const audio = toneWav(3);
    await db.insert(tracks).values(
      TRACKS.map((t, i) => ({
        id: t.id,
        slug: `track-${i + 1}`,
        title: t.title,
        artistId: ARTIST.id,
        albumId: ALBUM.id,
        trackNumber: i + 1,
        genre: 'Synthwave',
        durationSec: 3,
        audioBlobKey: `audio/${t.id}.wav`,
        audioFormat: 'wav',
      })),
    );
    for (const t of TRACKS) await station.blobs.put(`audio/${t.id}.wav`, audio);
    const product = await station.http.inject({
      method: 'POST',
      url: '/v1/store/products',
      headers: headers(owner),
      payload: { album_id: ALBUM.id, price: 7.5 },
    });
    expect(product.statusCode, product.body).toBe(201);
    const capsule = await station.http.inject({
      method: 'POST',
      url: '/v1/capsules',
      headers: headers(owner),
      payload: {
        title: 'Studio diary',
        teaser: 'What the first take sounded like',
        content_text: 'The first take was recorded in one night.',
        unlock_rule: 'follow',
      },
    });
    expect(capsule.statusCode, capsule.body).toBe(201);
  }

  async function verificationLink(email: string): Promise<string> {
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

  /**
   * Screenshots at both sizes, no serious axe finding, and no layout shift to speak of (the shifts summed
   * since the document loaded, across the client-side route changes, stay under CLS's "good" 0.1).
   */
  async function checkPage(page: Browser['page'], name: string) {
    const shift = await page.evaluate<number>('window.__shift');
    expect(shift, `layout shift by ${name}`).toBeLessThan(0.1);
    await screenshots(page, `listener-${name}`);
    expect(await seriousViolations(page), name).toEqual([]);
  }

  const focusedText = (page: Browser['page']) => page.evaluate<string>('document.activeElement?.textContent ?? ""');

  it('signs up, verifies, finds and follows an artist, saves, plays, makes a playlist, buys and downloads', async () => {
    await seedCatalog();
    const { page, context } = suite.browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    // Layout shifts, summed over the whole visit (a single-page app: one document).
    await page.addInitScript(
      `window.__shift = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; }).observe({ type: 'layout-shift', buffered: true });`,
    );

    // Sign up, then verify the address from the mailed link.
    const email = `journey-${Date.now()}@example.com`;
    await page.goto(`${ORIGIN}/`);
    await checkPage(page, 'sign-up');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Display name').fill('Journey Listener');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('listener-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page
      .getByTestId('email-status')
      .getByText(/is not verified yet/)
      .waitFor();
    expect(page.url()).toBe(`${ORIGIN}/`); // a listener stays on the listener pages
    await checkPage(page, 'radio');
    await page.goto(`${ORIGIN}${await verificationLink(email)}`);
    await page.getByText('Your e-mail address is verified.').waitFor();
    await checkPage(page, 'verify-email');
    await page.getByRole('button', { name: 'Go to the player' }).click();
    await page.getByText(`E-mail address ${email} verified.`).waitFor();

    // The navigation names each area; a route change moves focus to the new page's heading.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const area of ['Radio', 'Browse', 'Library', 'Playlists', 'History', 'Store', 'Account', 'Artist studio', 'Developers'])
      await nav.getByRole('link', { name: area }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Browse' }).click();
    await page.getByRole('heading', { name: 'Browse the catalog' }).waitFor();
    expect(await focusedText(page)).toBe('Browse the catalog');
    expect(await nav.getByRole('link', { name: 'Browse' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('list', { name: 'Tracks' }).getByRole('link', { name: 'Chrome Horizon' }).waitFor();
    await checkPage(page, 'browse');
    // Browse by genre (the choices are the artists' genres).
    await page.getByLabel('Genre').selectOption('Synthwave');
    await page.waitForURL(`${ORIGIN}/browse?genre=Synthwave`);
    await page.getByRole('list', { name: 'Tracks' }).getByRole('link', { name: 'Harbour Lights' }).waitFor();

    // Find the artist by search, open their page: the verified badge, follow, a capsule revealed for followers.
    await page.getByLabel('Search tracks, artists and albums').fill('neon');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Artists' }).click();
    expect(page.url()).toBe(`${ORIGIN}/browse?q=neon&genre=Synthwave&view=artists`); // the filters combine
    await page.getByRole('link', { name: ARTIST.name }).click();
    const heading = page.getByRole('heading', { level: 2, name: /Neon Tidewater/ });
    await heading.waitFor();
    expect(await heading.textContent()).toContain('Verified');
    await page.getByRole('heading', { name: 'Studio diary' }).waitFor();
    await checkPage(page, 'artist');
    await page.getByRole('button', { name: 'Tap to reveal Studio diary' }).click();
    await page.getByText('Follow the artist to reveal this capsule.').waitFor();
    await page.getByRole('button', { name: `Follow ${ARTIST.name}` }).click();
    await page.getByRole('button', { name: `Following ${ARTIST.name}`, pressed: true }).waitFor();
    await page.getByText('1 follower', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Tap to reveal Studio diary' }).click();
    await page.getByText('The first take was recorded in one night.').waitFor();
    await checkPage(page, 'artist-revealed');
    // Unfollow, and follow again.
    await page.getByRole('button', { name: `Following ${ARTIST.name}` }).click();
    await page.getByText('0 followers', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Follow ${ARTIST.name}`, pressed: false }).click();
    await page.getByText('1 follower', { exact: true }).waitFor();

    // A track page: save it, play it from the platform stream.
    await page.getByRole('list', { name: ALBUM.title }).getByRole('link', { name: 'Chrome Horizon' }).click();
    await page.getByRole('heading', { level: 2, name: 'Chrome Horizon' }).waitFor();
    await page.getByRole('button', { name: 'Save Chrome Horizon to your library' }).click();
    await page.getByRole('button', { name: 'Saved Chrome Horizon to your library', pressed: true }).waitFor();
    await page.locator('.track-actions').getByRole('button', { name: 'Play Chrome Horizon' }).click();
    await page.getByRole('region', { name: 'Track player' }).getByText('Playing:').waitFor();
    await page.waitForFunction(`document.querySelector('[data-testid="track-audio"]').currentTime > 0`);
    await checkPage(page, 'track');

    // A playlist of two tracks, reordered from the keyboard, the order kept by the server.
    await nav.getByRole('link', { name: 'Playlists' }).click();
    await page.getByLabel('Name').fill('Night drive');
    await page.getByRole('button', { name: 'Create playlist' }).click();
    await page.getByRole('heading', { level: 2, name: 'Night drive' }).waitFor();
    const playlistUrl = page.url();
    for (const t of TRACKS.slice(0, 2)) {
      await page.goto(`${ORIGIN}/tracks/${t.id}`);
      await page.getByRole('heading', { level: 2, name: t.title }).waitFor();
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByText('Added to “Night drive”.').waitFor();
    }
    await page.goto(playlistUrl);
    // The list is named after the playlist, which is renamed below.
    const rows = page.getByRole('list', { name: /^Night drive.*: tracks$/ }).getByRole('listitem');
    const order = async () => (await rows.locator('.row-main a').allTextContents()).join(' / ');
    await rows.first().waitFor();
    expect(await order()).toBe('Chrome Horizon / Arcade Heart');
    await checkPage(page, 'playlist');
    // Alt+Arrow Up on the second row moves it up; focus stays on its row's controls (on the twin button when
    // the pressed one is disabled at an end), so the keyboard alone carries on from there.
    await page.getByRole('button', { name: 'Move up Arcade Heart' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.getByText('“Arcade Heart” moved to position 1 of 2.').waitFor();
    expect(await order()).toBe('Arcade Heart / Chrome Horizon');
    expect(await focusedText(page)).toBe('↓Move down Arcade Heart');
    await page.keyboard.press('Enter');
    await page.getByText('“Arcade Heart” moved to position 2 of 2.').waitFor();
    expect(await order()).toBe('Chrome Horizon / Arcade Heart');
    expect(await focusedText(page)).toBe('↑Move up Arcade Heart');
    await page.keyboard.press('Enter');
    await page.getByText('“Arcade Heart” moved to position 1 of 2.').waitFor();
    // And by drag and drop.
    await rows.nth(1).dragTo(rows.nth(0));
    await page.getByText('“Chrome Horizon” moved to position 1 of 2.').waitFor();
    expect(await order()).toBe('Chrome Horizon / Arcade Heart');
    await rows.nth(1).dragTo(rows.nth(0));
    await page.getByText('“Arcade Heart” moved to position 1 of 2.').waitFor();
    await page.reload();
    await rows.first().waitFor();
    expect(await order()).toBe('Arcade Heart / Chrome Horizon');
    // Rename and make it public.
    await page.getByLabel('Playlist name').fill('Night drive, side A');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { level: 2, name: 'Night drive, side A' }).waitFor();
    await page.getByRole('button', { name: 'Public', exact: true }).click();
    await page.getByText('Now public.').waitFor();
    await page.getByRole('button', { name: 'Remove Chrome Horizon' }).click();
    await page.getByText('“Chrome Horizon” removed from the playlist.').waitFor();
    expect(await order()).toBe('Arcade Heart');
    expect(await focusedText(page)).toBe('Tracks');

    // The library and the listening history show the saved and the played track.
    await nav.getByRole('link', { name: 'Library' }).click();
    await page.getByRole('list', { name: 'Saved tracks' }).getByRole('link', { name: 'Chrome Horizon' }).waitFor();
    await checkPage(page, 'library');
    await nav.getByRole('link', { name: 'History' }).click();
    await page.getByRole('list', { name: 'Plays, newest first' }).getByRole('link', { name: 'Chrome Horizon' }).waitFor();
    await checkPage(page, 'history');

    // Buy the album through the sandbox processor (its page opens in a new tab), then download a track of it.
    await page.goto(`${ORIGIN}/albums/${ALBUM.slug}`);
    await page.getByRole('heading', { level: 2, name: ALBUM.title }).waitFor();
    await checkPage(page, 'album');
    await page.getByRole('button', { name: 'Save all tracks of Run the Grid to your library' }).click();
    await page.getByRole('button', { name: 'All tracks saved of Run the Grid to your library', pressed: true }).waitFor();
    await page.getByRole('button', { name: /^Buy “Run the Grid” · 7\.50 USD/ }).click();
    const [checkout] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /^Pay 7\.50 USD at checkout/ }).click()]);
    await checkout.getByRole('button', { name: 'Pay' }).click();
    await checkout.getByRole('heading', { name: 'Payment complete' }).waitFor();
    await checkout.close();
    await page.getByRole('link', { name: 'Store: your purchases' }).click();
    const purchases = page.getByRole('region', { name: 'Your purchases' });
    await purchases.getByText(ALBUM.title).waitFor();
    await checkPage(page, 'store');
    const [download] = await Promise.all([page.waitForEvent('download'), purchases.getByRole('button', { name: 'Download Chrome Horizon' }).click()]);
    const file = readFileSync((await download.path())!);
    expect(file.subarray(0, 4).toString()).toBe('RIFF');
    expect(file.length).toBe(toneWav(3).length);

    // The library now holds the whole release, and the release bought.
    await nav.getByRole('link', { name: 'Library' }).click();
    await page.getByRole('list', { name: 'Saved tracks' }).getByRole('link', { name: 'Harbour Lights' }).waitFor();
    await page.getByRole('region', { name: 'Releases you bought' }).getByRole('link', { name: ALBUM.title }).waitFor();
    await checkPage(page, 'library-owned');

    // Account settings.
    await nav.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    await page.getByText(`E-mail address ${email} verified.`).waitFor();
    await page.getByLabel('Display name').fill('Night Listener');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
    await page.getByRole('banner').getByText('Night Listener').waitFor();
    await page.getByLabel('Current password').fill('listener-password');
    await page.getByLabel('New password').fill('a-new-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. Your other sessions are logged out.').waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await checkPage(page, 'account');
    const secret = await page.getByTestId('totp-secret').textContent();
    await page.getByLabel('6-digit code from the app').fill(totpCode(secret!, suite.station.clock.now()));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    await page.getByRole('region', { name: 'Connected apps' }).getByText('No app acts for you.').waitFor();

    // An unknown path inside the app says so.
    await page.goto(`${ORIGIN}/albums/no-such-album`);
    await page.getByRole('alert').waitFor();
    expect(await page.evaluate<number>('window.__shift')).toBeLessThan(0.1);
    expect(errors).toEqual([]);
  }, 300_000);

  it('after a sign-in, sends an artist to the studio and staff to the admin panel, by the role claim', async () => {
    const { page } = suite.browser;
    const { station } = suite;
    const logIn = async (email: string, password: string) => {
      await page.goto(`${ORIGIN}/`);
      const logout = page.getByRole('button', { name: 'Log out' });
      await Promise.race([logout.waitFor(), page.getByRole('button', { name: 'Create account' }).waitFor()]);
      if ((await logout.count()) > 0) {
        await logout.click();
        await page.getByRole('button', { name: 'Create account' }).waitFor();
      }
      await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Log in' }).click();
      const form = page.getByRole('form', { name: 'Log in' });
      await form.getByLabel('E-mail').fill(email);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Log in' }).click();
      return form;
    };

    const artistEmail = `studio-${Date.now()}@example.com`;
    await station.auth.createUser({ email: artistEmail, password: 'artist-password-1', role: 'artist', displayName: 'Studio Artist' });
    await logIn(artistEmail, 'artist-password-1');
    await page.waitForURL(`${ORIGIN}/studio`);

    // Staff answer the two-factor step first, then land on /admin; back on /, the navigation offers the admin panel.
    const form = await logIn(ADMIN.email, ADMIN.password);
    await form.getByLabel('Authenticator code').fill(totpCode(ADMIN.totpSecret, station.clock.now()));
    await form.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${ORIGIN}/admin`);
    await page.goto(`${ORIGIN}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).waitFor();
  }, 120_000);

  it('pages long results: Show more appends the next page once', async () => {
    const { page } = suite.browser;
    const { db } = suite.station.database;
    const prolific = { id: randomUUID(), slug: 'prolific-lark', name: 'Prolific Lark' };
    await db.insert(artists).values({ ...prolific, genre: 'Folk' });
    await db.insert(tracks).values(
      Array.from({ length: 23 }, (_, i) => ({
        id: randomUUID(),
        slug: `lark-${i}`,
        title: `Lark Song ${i + 1}`,
        artistId: prolific.id,
        genre: 'Folk',
        durationSec: 60,
        streams: 100 - i,
      })),
    );
    await page.goto(`${ORIGIN}/browse?q=lark`);
    const list = page.getByRole('list', { name: 'Tracks' }).getByRole('listitem');
    await page.getByText('23 found').waitFor();
    expect(await list.count()).toBe(20);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByRole('link', { name: 'Lark Song 23' }).waitFor();
    const titles = await list.locator('.row-main > a').allTextContents();
    expect(titles).toHaveLength(23);
    expect(new Set(titles).size).toBe(23);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
  }, 120_000);
});
