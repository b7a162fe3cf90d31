/**
 * Generation throughput with 1 and 2 workers: an API instance (STATION_ROLE=api, runs no generation) and N
 * `npm run worker` processes (src/worker.ts) on one PostgreSQL and Redis, a trained audio model (the test
 * suites' shortcut: 3 masters, 5 epochs); 4 generations (the spec's in-flight limit) requested at once,
 * timed from the requests to the last completion. Figures: generations per minute, seconds of audio per
 * second of wall time, and the 2/1 ratio. Each run has a fresh database (dropped afterwards) and DATA_DIR.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx bench/worker-throughput.ts [generations=4] [seconds=20]
 *
 * On one machine the workers share its cores (two here, with everything else), so the ratio says how much a
 * second worker adds on this host, not on a machine of its own.
 */
import { loadavg } from 'node:os';
import { FaultStation, serviceHeaders, until } from '../test/faults/support.js';
import { buildTrainedStation } from '../test/helpers/trained-station.js';

const count = Number(process.argv[2] ?? 4);
const seconds = Number(process.argv[3] ?? 20);
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error('needs DATABASE_URL and REDIS_URL (see the header)');

interface Generation {
  generation_id: string;
  status: string;
}

async function run(workers: number): Promise<number> {
  const station = new FaultStation();
  try {
    await station.createDatabase();
    const seeded = await buildTrainedStation({ DATA_DIR: station.dataDir }, { masters: 3, trackSec: 4, database: station.database, models: ['audio'] });
    await seeded.destroy();
    const [api] = await Promise.all([
      station.start('api', { STATION_ROLE: 'api' }),
      ...Array.from({ length: workers }, (_, i) => station.start(`worker-${i + 1}`, {}, 'src/worker.ts')),
    ]);
    const csrf = ((await (await fetch(`${api.base}/api/auth/csrf`, { headers: serviceHeaders })).json()) as { csrf_token: string }).csrf_token;
    const started = Date.now();
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const response = await fetch(`${api.base}/station/v1/generate/track`, {
          method: 'POST',
          headers: { ...serviceHeaders, 'x-csrf-token': csrf, 'content-type': 'application/json' },
          body: JSON.stringify({ max_duration_sec: seconds, seed: 100 + i }),
        });
        if (response.status !== 202) throw new Error(`generation request answered ${response.status}: ${await response.text()}`);
        return ((await response.json()) as Generation).generation_id;
      }),
    );
    const read = (id: string) => fetch(`${api.base}/station/v1/generate/track/${id}`, { headers: serviceHeaders }).then((r) => r.json() as Promise<Generation>);
    const done = await until(
      'every generation is done',
      () => Promise.all(ids.map(read)),
      (all) => all.every((g) => g.status === 'complete' || g.status === 'failed'),
      900_000,
    );
    const elapsedSec = (Date.now() - started) / 1000;
    const complete = done.filter((g) => g.status === 'complete').length;
    console.log(
      `${workers} worker(s): ${complete}/${count} complete in ${elapsedSec.toFixed(1)} s: ${((complete / elapsedSec) * 60).toFixed(2)} generations/min, ` +
        `${((complete * seconds) / elapsedSec).toFixed(2)} s of audio per s (load ${loadavg()[0].toFixed(1)})`,
    );
    return complete / elapsedSec;
  } finally {
    await station.close();
  }
}

console.log(`${count} generations of ${seconds} s, requested at once (load ${loadavg()[0].toFixed(1)})`);
const one = await run(1);
const two = await run(2);
console.log(`2 workers / 1 worker: ${(two / one).toFixed(2)}`);
