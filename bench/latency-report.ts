/** The tables of bench/latency-under-load.ts: latency percentiles per route and phase, event-loop delay, CPU per thread group. */

export interface Sample {
  route: string;
  phase: string;
  sentAt: number;
  ms: number;
  status: number;
}

export interface LagSample {
  at: number;
  phase: string;
  maxMs: number;
  p99Ms: number;
}

export interface CpuSample {
  phase: string;
  /** Percent of one core over the last second. */
  mainPct: number;
  otherPct: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);

function unexpected(of: Sample[]): string {
  const counts = new Map<number, number>();
  for (const s of of) if (s.status <= 0) counts.set(-s.status, (counts.get(-s.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n}x ${status === 0 ? 'no answer' : status}`).join(', ');
}

function row(label: string, values: number[], failures = ''): string {
  const sorted = values.slice().sort((a, b) => a - b);
  return (
    `${label.padEnd(52)} n=${String(values.length).padStart(5)}  p50 ${fmt(percentile(sorted, 50)).padStart(8)}  p95 ${fmt(percentile(sorted, 95)).padStart(8)}` +
    `  p99 ${fmt(percentile(sorted, 99)).padStart(8)}  max ${fmt(sorted[sorted.length - 1] ?? NaN).padStart(8)}${failures ? `  (unexpected: ${failures})` : ''}`
  );
}

/** Prints the tables; true when every route's p99 is under the target with no unexpected answer. */
export function report({ samples, lags, cpu }: { samples: Sample[]; lags: LagSample[]; cpu: CpuSample[] }, targetP99Ms: number): boolean {
  const routes = [...new Set(samples.map((s) => s.route))];
  const phaseNames = [...new Set(samples.map((s) => s.phase))];
  let pass = true;
  console.log(`\nlatency per route, whole run (target p99 < ${targetP99Ms} ms):`);
  for (const route of routes) {
    const of = samples.filter((s) => s.route === route);
    const failures = unexpected(of);
    console.log(
      row(
        route,
        of.map((s) => s.ms),
        failures,
      ),
    );
    const sorted = of.map((s) => s.ms).sort((a, b) => a - b);
    if (!(percentile(sorted, 99) < targetP99Ms) || failures) pass = false;
  }
  for (const name of phaseNames) {
    console.log(`\nphase ${name}:`);
    for (const route of routes) {
      const of = samples.filter((s) => s.route === route && s.phase === name);
      if (of.length)
        console.log(
          row(
            `  ${route}`,
            of.map((s) => s.ms),
            unexpected(of),
          ),
        );
    }
    const lagOf = lags.filter((l) => l.phase === name && !Number.isNaN(l.maxMs));
    if (lagOf.length)
      console.log(
        row(
          '  event-loop delay, max per 1 s window',
          lagOf.map((l) => l.maxMs),
        ),
      );
    const cpuOf = cpu.filter((c) => c.phase === name);
    if (cpuOf.length) {
      const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
      console.log(
        `  station CPU (% of one core, mean of 1 s windows): main thread ${mean(cpuOf.map((c) => c.mainPct)).toFixed(0)}%, ` +
          `other threads ${mean(cpuOf.map((c) => c.otherPct)).toFixed(0)}%`,
      );
    }
  }
  const lagAll = lags.filter((l) => !Number.isNaN(l.maxMs));
  console.log(
    `\n${row(
      'event-loop delay, max per 1 s window (whole run)',
      lagAll.map((l) => l.maxMs),
    )}`,
  );
  const worst = lagAll
    .slice()
    .sort((a, b) => b.maxMs - a.maxMs)
    .slice(0, 5);
  console.log(`worst windows: ${worst.map((l) => `${fmt(l.maxMs)} at ${(l.at / 1000).toFixed(0)} s`).join(', ')}`);
  const slowest = samples
    .slice()
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  console.log(`slowest requests: ${slowest.map((s) => `${s.route.split(' ')[1]} ${fmt(s.ms)} sent at ${(s.sentAt / 1000).toFixed(0)} s`).join('; ')}`);
  return pass;
}
