/**
 * A property-based fuzz of every operation in /openapi.json (fast-check): for each route, bodies built from its
 * own request schema and then broken one field at a time (wrong type, null, missing, huge, negative, nested),
 * odd path ids and odd query values, sent by the super_admin (the widest rights, so requests reach the deepest
 * validation) from a fresh client address each (rate limits are not what this tests). Every answer must be
 * below 500; every 4xx the contract's error envelope; and a request the API rejects must change nothing in the
 * database (a fingerprint of every table's rows before and after).
 *
 * Bounded: a fixed number of runs per route with a fixed seed, so a failure replays. Streams, WebSockets and
 * server-sent events are left to their own suites (they do not end), as are the routes that end the caller's
 * own session (the fuzz would log itself out and test nothing after).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress } from '../auth/support.js';
import { authHeaders, buildTestStation, staffLogin, type Credentials, type TestStation } from '../helpers/station.js';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string; required?: boolean; schema?: Schema }[];
  body: Schema | null;
  bodyType: string | null;
}

const RUNS_PER_ROUTE = 6;
const SEED = 20261127;
/** Routes that never end (live audio, server-sent events, WebSockets) or that log the fuzzing caller out. */
const SKIPPED = [
  /\/radio\/stream$/,
  /\/ws\//,
  /\/live$/,
  /\/events\/stream$/,
  /\/tracks\/\{[^}]+\}\/stream$/,
  /\/auth\/logout/,
  /\/auth\/revoke$/,
  /\/admin\/logout/,
  /\/users\/me$/, // DELETE /v1/users/me removes the fuzzing account itself
  /\/sessions/,
];
/**
 * Tables the station's own loops write on their own clocks whatever the requests do (the playout's state, the
 * context rotation, plays, analyses, the listener-count samples, the mail and webhook senders): a change there during a request is not the
 * request's.
 */
const BACKGROUND = new Set([
  'radio_state',
  'radio_slots',
  'station_contexts',
  'station_plays',
  'playout_analyses',
  'listener_samples',
  'mail_outbox',
  'webhook_deliveries',
]);
/** RFC 6749 (section 5.2) fixes the token endpoint's error body: {"error","error_description"}, not the envelope. */
const OAUTH_ERROR_BODY = /^\/v1\/oauth\/token$/;

const ODD_IDS = ['0', '-1', 'null', '%00', '%2e%2e%2f', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000', '1e309', '%F0%9F%8E%B5', 'a b'];
const ODD_VALUES = ['', '-1', '0', '999999999999999999999', 'NaN', 'true', '[]', '{}', 'x'.repeat(5000), '%00', "' or 1=1 --", '2026-13-45'];

let station: TestStation;
let admin: Credentials;
let spec: Schema;

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let hops = 0; s.$ref && hops < 10; hops += 1) {
    const name = String(s.$ref).split('/').pop()!;
    s = spec.components?.schemas?.[name] ?? {};
  }
  return s;
}

/** A value the schema accepts, as plain as possible: the valid starting point that mutations then break. */
function sample(input: Schema | undefined, depth = 0): unknown {
  const schema = resolve(input);
  if (depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const choice = schema[key].find((s: Schema) => resolve(s).type !== 'null') ?? schema[key][0];
      return sample(choice, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((s: Schema) => sample(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'email') return `fuzz-${randomUUID().slice(0, 8)}@example.com`;
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/hook';
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1)).toISOString();
      if (schema.format === 'date') return '2026-01-01';
      const length = Math.max(Number(schema.minLength ?? 0), 6);
      return 'fuzzed'.padEnd(length, 'x').slice(0, Math.max(length, Number(schema.maxLength ?? length)));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sample(schema.items, depth + 1));
    case 'object':
    default: {
      if (!schema.properties) return type === 'object' ? {} : null;
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries<Schema>(schema.properties)) out[name] = sample(prop, depth + 1);
      return out;
    }
  }
}

/** One field broken: each is a value a client could send by mistake or on purpose. */
const FIELD_MUTATIONS: ((value: unknown) => unknown)[] = [
  (v) => (typeof v === 'string' ? 12345 : 'not-the-right-type'),
  () => null,
  () => undefined, // the field left out
  () => 'x'.repeat(100_000),
  () => -1e12,
  () => ({ nested: { deeper: [1, 2, 3] } }),
  () => [],
  () => '\u0000\u202e',
];
/** The whole body broken. */
const BODY_MUTATIONS: unknown[] = [undefined, [], 'a string body', 42, { unexpected_field: true }];

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(spec.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op || SKIPPED.some((pattern) => pattern.test(path))) continue;
      const responses = JSON.stringify(op.responses ?? {});
      if (responses.includes('text/event-stream')) continue;
      const content = op.requestBody?.content ?? {};
      const bodyType = Object.keys(content)[0] ?? null;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => resolve(p) as Operation['parameters'][number]),
        body: bodyType ? (content[bodyType].schema ?? {}) : null,
        bodyType,
      });
    }
  }
  return out;
}

/** Row counts and a digest of every table's rows, in one statement. */
async function fingerprint(): Promise<Map<string, string>> {
  const { db } = station.database;
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as {
    rows: { table_name: string }[];
  };
  const names = tables.rows.map((r) => r.table_name).filter((name) => !name.startsWith('__drizzle') && !BACKGROUND.has(name));
  const union = names
    .map((name) => `select '${name}' as t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as f from "${name}" x`)
    .join(' union all ');
  const result = (await db.execute(sql.raw(union))) as unknown as { rows: { t: string; f: string }[] };
  return new Map(result.rows.map((r) => [r.t, r.f]));
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}

let lastRequest = '';
async function assertAdminSession(): Promise<void> {
  const probe = await station.http.inject({ method: 'GET', url: '/v1/users/me', headers: authHeaders(admin), remoteAddress: clientAddress() });
  if (probe.statusCode !== 200) throw new Error(`the fuzzing session ended after ${lastRequest}: ${probe.body}`);
}

beforeAll(async () => {
  station = await buildTestStation({}, { fakeEngine: true });
  admin = await staffLogin(station);
  spec = (await station.http.inject({ method: 'GET', url: '/openapi.json' })).json();
}, 120_000);
afterAll(async () => {
  await station?.destroy();
});

describe('a fuzz of every route in /openapi.json', () => {
  it('answers below 500, with the error envelope on every 4xx, and a rejected request changes nothing', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let requests = 0;
    let rejected = 0;
    for (const op of ops) {
      const valid = op.body && op.bodyType === 'application/json' ? sample(op.body) : undefined;
      const fields = valid && typeof valid === 'object' && !Array.isArray(valid) ? Object.keys(valid) : [];
      const arbitrary = fc.record({
        id: fc.constantFrom(...ODD_IDS, randomUUID()),
        queryValue: fc.constantFrom(...ODD_VALUES),
        field: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant(null),
        fieldMutation: fc.nat({ max: FIELD_MUTATIONS.length - 1 }),
        bodyMutation: fc.option(fc.nat({ max: BODY_MUTATIONS.length - 1 }), { freq: 4 }),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async (input) => {
          await assertAdminSession();
          const url = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(decodeURIComponent(input.id)).replace(/%25/g, '%'));
          const query = op.parameters
            .filter((p) => p.in === 'query')
            .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(input.queryValue)}`)
            .join('&');
          let payload: unknown = undefined;
          if (op.body && op.bodyType === 'application/json') {
            if (input.bodyMutation !== null) payload = BODY_MUTATIONS[input.bodyMutation];
            else if (input.field !== null) {
              const broken = { ...(valid as Record<string, unknown>) };
              const value = FIELD_MUTATIONS[input.fieldMutation](broken[input.field]);
              if (value === undefined) delete broken[input.field];
              else broken[input.field] = value;
              payload = broken;
            } else payload = valid;
          } else if (op.bodyType) {
            payload = 'not the media type the route expects';
          }
          const mutating = op.method !== 'GET';
          const before = mutating ? await fingerprint() : null;
          const response = await station.http.inject({
            method: op.method as 'GET',
            url: query ? `${url}?${query}` : url,
            headers: { ...authHeaders(admin), ...(payload !== undefined && typeof payload !== 'object' ? { 'content-type': 'application/json' } : {}) },
            remoteAddress: clientAddress(),
            ...(payload === undefined ? {} : { payload: typeof payload === 'object' ? (payload as object) : JSON.stringify(payload) }),
          });
          requests += 1;
          lastRequest = `${op.method} ${url}${query ? `?${query}` : ''} ${JSON.stringify(payload)?.slice(0, 200)} -> ${response.statusCode}`;
          const where = `${op.method} ${op.path} (${JSON.stringify(input).slice(0, 200)})`;
          // 503 is the contract's answer for a feature the operator has not configured (an identity provider,
          // payments), with the envelope; anything else of 5xx is a fault.
          const unconfigured = response.statusCode === 503 && /_(NOT_CONFIGURED|UNAVAILABLE)"/.test(response.body);
          if (response.statusCode >= 500 && !unconfigured) failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 300)}`);
          if (response.statusCode >= 400 && response.statusCode < 500) {
            rejected += 1;
            const body = (() => {
              try {
                return response.json();
              } catch {
                return null;
              }
            })();
            const envelope = body?.error;
            if (OAUTH_ERROR_BODY.test(op.path)) {
              if (typeof body?.error !== 'string' || typeof body?.error_description !== 'string') failures.push(`${where}: not an RFC 6749 error body`);
            } else if (!envelope || typeof envelope.code !== 'string' || envelope.http_status !== response.statusCode || typeof envelope.message !== 'string') {
              failures.push(`${where}: ${response.statusCode} without the error envelope: ${response.body.slice(0, 200)}`);
            }
            if (before) {
              const changed = changedTables(before, await fingerprint());
              if (changed.length > 0) failures.push(`${where}: rejected with ${response.statusCode} but changed ${changed.join(', ')}`);
            }
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
    }
    console.log(`route fuzz: ${ops.length} operations, ${requests} requests, ${rejected} rejected`);
    if (failures.length > 0) console.log(failures.join('\n'));
    expect(failures).toEqual([]);
  }, 900_000);
});
