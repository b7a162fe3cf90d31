/**
 * The browser side of the web tests: Debian's chromium driven by playwright-core (never a downloaded
 * browser), the production bundle (built here when dist/web is missing), axe-core run inside the page, and
 * screenshots under one folder. The station answers at PUBLIC_BASE_URL http://station.test (its links are
 * absolute), so the browser resolves station.test to the in-process server's loopback port.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { WEB_ROOT } from '../../src/http/web.js';
import { buildTestStation, type TestStation, type TestStationOptions } from '../helpers/station.js';
import { buildTrainedStation } from '../helpers/trained-station.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(process.cwd(), '.tmp', 'screenshots');
export const ORIGIN = 'http://station.test';

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** The production bundle the server serves; built once if missing (CI builds it before the suites). */
export function ensureWebBuild(): void {
  if (['index.html', 'admin/index.html', 'studio/index.html', 'developers/index.html'].every((page) => existsSync(join(WEB_ROOT, page)))) return;
  execFileSync(process.execPath, [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], { stdio: 'inherit' });
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** One fresh browser profile, station.test mapped to `port` on loopback. */
export async function launchBrowser(port: number): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'station-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: VIEWPORTS.desktop,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable',
      '--autoplay-policy=no-user-gesture-required',
      `--host-resolver-rules=MAP station.test 127.0.0.1:${port}`,
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP does not block it). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // A string expression: this runs in the page, where the DOM is (the test's own types know no DOM).
  const violations = await page.evaluate<AxeViolation[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })()`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** `<name>-desktop.png` and `<name>-phone.png` under .tmp/screenshots; the viewport is desktop again after. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const files: string[] = [];
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    const file = join(SCREENSHOTS, `${name}-${size}.png`);
    await page.screenshot({ path: file, fullPage: false });
    files.push(file);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return files;
}

/** Port of the address `http.listen` answered. */
export function portOf(address: string): number {
  return Number(new URL(address).port);
}

/**
 * A small trained station on air (short AI tracks, an even catalog/AI ratio, no crossfade, so track changes
 * and AI slots come round quickly), served on a loopback port, and a browser pointed at it. Set up through
 * the services, not the staff API: a browser login may need this 30 s window's one TOTP code. `options` go to
 * the station (e.g. the FakeEngine, for pages that show what the engine made but not how it sounds).
 */
export async function playingStationAndBrowser(options: TestStationOptions = {}): Promise<{ station: TestStation; browser: Browser }> {
  ensureWebBuild();
  const station = await buildTrainedStation(
    { STATION_SCHEDULER_CYCLE_SEC: '1' },
    { masters: 4, trackSec: 4, models: ['audio', 'style_embedding'], ...options },
  );
  await station.station.admin.config.update({ catalog_ratio: 0.5, ai_generation_ratio: 0.5, max_track_length_sec: 10, crossfade_sec: 0 });
  await station.station.admin.config.enable(null);
  const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
  return { station, browser: await launchBrowser(portOf(address)) };
}

/** The station and browser of a suite: set up before its tests (playingStationAndBrowser), closed after them. */
export function playingStationAndBrowserForSuite(options: TestStationOptions = {}): { station: TestStation; browser: Browser } {
  const suite = {} as { station: TestStation; browser: Browser };
  beforeAll(async () => {
    Object.assign(suite, await playingStationAndBrowser(options));
  }, 300_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.station?.destroy();
  });
  return suite;
}

/**
 * A plain station (no models, radio off) served on a loopback port and a browser pointed at it, for one suite;
 * `env` adds to the test configuration (e.g. STATION_WEBHOOK_ALLOWED_HOSTS for a receiver on loopback), and
 * `options` to the station's (e.g. the FakeEngine, or a shorter webhook backoff).
 */
export function stationAndBrowserForSuite(env: Record<string, string> = {}, options: TestStationOptions = {}): { station: TestStation; browser: Browser } {
  const suite = {} as { station: TestStation; browser: Browser };
  beforeAll(async () => {
    ensureWebBuild();
    suite.station = await buildTestStation(env, options);
    suite.browser = await launchBrowser(portOf(await suite.station.http.listen({ port: 0, host: '127.0.0.1' })));
  }, 300_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.station?.destroy();
  });
  return suite;
}
