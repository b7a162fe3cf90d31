/**
 * `npm run bench` lists the benchmarks; `npm run bench -- <name> [args...]` runs one (`npm run bench -- http
 * --duration 5` is `npx tsx bench/http.ts --duration 5`) and exits with its code (most exit 1 when a target
 * is missed).
 *
 * The list is bench/README.md's `##` headings, each of which names its script as (`bench/<name>.ts`): a
 * benchmark is runnable from here once it is documented there, and the README stays the one place to read
 * what each measures and targets.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Benchmark {
  name: string;
  title: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** `## Title (`bench/name.ts`)` -> { name, title }. */
function benchmarksIn(readme: string): Benchmark[] {
  const heading = /^## (.+?) \(`bench\/([a-z0-9-]+)\.ts`\)\s*$/gm;
  return [...readme.matchAll(heading)].map((match) => ({ title: match[1], name: match[2] }));
}

function list(benchmarks: Benchmark[]): void {
  const width = Math.max(...benchmarks.map((b) => b.name.length));
  console.log('Benchmarks (details, targets and last figures in bench/README.md):\n');
  for (const b of benchmarks) console.log(`  ${b.name.padEnd(width)}  ${b.title}`);
  console.log('\nRun one: npm run bench -- <name> [args...]');
}

function run(name: string, args: string[]): void {
  // The same node with the same flags (tsx's loader among them), so the script runs as `tsx bench/<name>.ts` would.
  const child = spawn(process.execPath, [...process.execArgv, join(here, `${name}.ts`), ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const benchmarks = benchmarksIn(readFileSync(join(here, 'README.md'), 'utf8'));
const [name, ...args] = process.argv.slice(2);
if (!name || name === '--list' || name === '--help') {
  list(benchmarks);
} else if (!benchmarks.some((b) => b.name === name) || !existsSync(join(here, `${name}.ts`))) {
  console.error(`No benchmark named "${name}".\n`);
  list(benchmarks);
  process.exitCode = 2;
} else {
  run(name, args);
}
