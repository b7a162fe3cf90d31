/**
 * The web front end's weight and load time: builds the production bundle (web/ -> dist/web), sums the
 * gzipped JavaScript each page loads (its entry script and the chunks it preloads), then serves it from
 * the station on loopback and loads each page in Debian's chromium (playwright-core) with a fresh profile.
 *
 * Targets (issue 10): listener page < 150 KB of gzipped JavaScript, admin panel < 350 KB, each page
 * loaded (the app rendered) in < 2 s on loopback. Exits 1 when one is missed.
 *
 *   npx tsx bench/web-bundle.ts             # build, measure sizes, load each page 3 times
 *   npx tsx bench/web-bundle.ts --no-build  # measure the bundle already in dist/web
 *   npx tsx bench/web-bundle.ts --sizes-only
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createStation } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { WEB_ROOT } from '../src/http/web.js';

const TARGET_KB = { listener: 150, admin: 350 } as const;
const TARGET_LOAD_MS = 2000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean' }, 'sizes-only': { type: 'boolean' }, runs: { type: 'string', default: '3' } } });

interface PageSize {
  page: 'listener' | 'admin';
  files: Array<{ file: string; bytes: number; gzip: number }>;
  jsGzip: number;
  cssGzip: number;
}

/** The JavaScript and CSS a page's HTML loads: module script, modulepreload links, stylesheets. */
function pageSize(page: PageSize['page']): PageSize {
  const html = readFileSync(join(WEB_ROOT, page === 'listener' ? 'index.html' : 'admin/index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const files = [...new Set(refs)].map((ref) => {
    const content = readFileSync(join(WEB_ROOT, ref));
    return { file: ref, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  });
  const sum = (ext: string) => files.filter((f) => f.file.endsWith(ext)).reduce((total, f) => total + f.gzip, 0);
  return { page, files, jsGzip: sum('.js'), cssGzip: sum('.css') };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function loadTimes(runs: number): Promise<Array<{ page: string; what: string; ms: number[] }>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-web-'));
  const config = loadConfig({ DATA_DIR: dataDir, STATION_DEMO: 'false', LOG_LEVEL: 'silent', PORT: '0' });
  const station = await createStation(config, { logger: false });
  const results: Array<{ page: string; what: string; ms: number[] }> = [];
  try {
    const base = (await station.http.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    // A new listener per run: the page renews its login at start, and a refresh token is single-use.
    const newLogin = async (run: number) => {
      const payload = { email: `bench-web-${run}-${Date.now()}@example.com`, password: 'bench-password', display_name: 'Bench' };
      const answer = (await station.http.inject({ method: 'POST', url: '/v1/auth/signup', payload })).json();
      return { token: answer.token, csrf: answer.csrf_token, expiresIn: answer.expires_in, refreshToken: answer.refresh_token, user: answer.user };
    };

    const cases = [
      { page: 'listener', what: 'sign-up form', path: '/', ready: 'form[aria-label="Sign up"]' },
      { page: 'listener', what: 'radio (logged in)', path: '/', ready: 'article.now-playing', login: true },
      { page: 'admin', what: 'login form', path: '/admin', ready: 'form[aria-label="Staff login"]' },
    ];
    for (const c of cases) {
      const ms: number[] = [];
      for (let run = 0; run < runs; run++) {
        // A fresh profile each run: nothing cached, as a first visit.
        const profile = mkdtempSync(join(tmpdir(), 'station-bench-chromium-'));
        const context = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
        try {
          const page = context.pages()[0] ?? (await context.newPage());
          if (c.login) {
            // The stored login the page reads at start (what signing up leaves behind).
            await page.goto(`${base}/healthz`);
            await page.evaluate(`localStorage.setItem('station.listener.login', ${JSON.stringify(JSON.stringify(await newLogin(run)))})`);
          }
          const started = Date.now();
          await page.goto(`${base}${c.path}`);
          await page.waitForSelector(c.ready);
          ms.push(Date.now() - started);
        } finally {
          await context.close();
          rmSync(profile, { recursive: true, force: true });
        }
      }
      results.push({ page: c.page, what: c.what, ms });
    }
  } finally {
    await station.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

if (!values['no-build']) {
  execFileSync(process.execPath, [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], { stdio: 'inherit' });
}

let missed = false;
console.log('\nGzipped size of what each page loads (level 9):\n');
for (const page of ['listener', 'admin'] as const) {
  const size = pageSize(page);
  const ok = size.jsGzip < TARGET_KB[page] * 1024;
  missed ||= !ok;
  console.log(`  ${page.padEnd(8)}  JS ${kb(size.jsGzip).padStart(9)}  (target < ${TARGET_KB[page]} KB: ${ok ? 'met' : 'MISSED'})   CSS ${kb(size.cssGzip)}`);
  for (const f of size.files) console.log(`            ${f.file.padEnd(40)} ${kb(f.bytes).padStart(9)} raw  ${kb(f.gzip).padStart(9)} gzip`);
}

if (!values['sizes-only']) {
  const runs = Math.max(1, Number(values.runs));
  console.log(`\nPage load on loopback, fresh browser profile, ${runs} runs (navigation until the app has rendered):\n`);
  for (const result of await loadTimes(runs)) {
    const worst = Math.max(...result.ms);
    const ok = worst < TARGET_LOAD_MS;
    missed ||= !ok;
    const median = [...result.ms].sort((a, b) => a - b)[Math.floor(result.ms.length / 2)];
    console.log(
      `  ${result.page.padEnd(8)}  ${result.what.padEnd(18)}  median ${String(median).padStart(5)} ms  worst ${String(worst).padStart(5)} ms  (target < ${TARGET_LOAD_MS} ms: ${ok ? 'met' : 'MISSED'})`,
    );
  }
}
process.exitCode = missed ? 1 : 0;
