/** The OpenAPI 3.1 document's frame; paths come from the routes' own TypeBox schemas. */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Station and platform APIs',
      version: '1.0.0-beta',
      description: [
        'Two APIs served together: the station radio API under `/station/v1` (modules A to I) and the',
        'music platform API under `/v1`. Errors always use the envelope',
        '`{"error":{"code","http_status","message","detail","retry_after","request_id"}}`; codes are',
        '`STATION_*` on station paths and `PLATFORM_*` on platform paths. Every POST, PUT, PATCH and DELETE',
        'carries `X-CSRF-Token` equal to the `csrf_token` issued with the credential, except the calls that',
        'create a credential. Lists take `page` (from 1) and `limit` (default 20, at most 100) and answer',
        '`{"data","total","page","limit"}`. The sandbox base address `/sandbox/v1/...` serves every `/v1/...`',
        'operation below on sandbox data: test keys and login sessions work there, a live key answers 403',
        '`PLATFORM_FORBIDDEN`; switching to production means changing the base address.',
        'Codes beyond the specification: `*_INVALID_CREDENTIALS` (401, a',
        'login that fails), `*_PAYLOAD_TOO_LARGE` (413), `*_UNSUPPORTED_MEDIA_TYPE` (415), `*_INTERNAL_ERROR` (500).',
      ].join(' '),
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey' as const, in: 'header', name: 'X-API-Key' },
      },
    },
    tags: [
      { name: 'operations', description: 'Health, readiness, metrics' },
      { name: 'station-auth', description: 'Staff login and the station permission set' },
      { name: 'platform-auth', description: 'Platform sign-up, login and tokens' },
      { name: 'developer', description: 'Developer API keys (live and sandbox), their quotas and the sandbox rule' },
      { name: 'oauth', description: 'OAuth 2.0 authorization code with PKCE (S256): apps, consent, tokens, authorized apps, server metadata' },
      { name: 'users', description: 'The current user and their profile' },
      { name: 'admin', description: 'Platform administration (platform:admin)' },
      { name: 'tracks', description: 'Platform catalog: tracks' },
      { name: 'artists', description: 'Platform catalog: artists' },
      { name: 'library', description: "Listeners: the caller's saved tracks" },
      { name: 'listeners', description: 'Listener profiles, play history and playlists, with privacy' },
      { name: 'playlists', description: 'Playlists: create, rename, add, remove, reorder, public or private' },
      { name: 'capsules', description: 'Sonic Capsules with Tap-to-Reveal' },
      { name: 'webhooks', description: 'Webhook registry (station and platform events) and delivery log' },
      { name: 'subscriptions', description: 'The Pro plan: subscription checkout through the payment processor (sandbox or Stripe)' },
      { name: 'analytics', description: 'Analytics from recorded plays and orders: streams, audience, revenue, top lists, live counters (SSE)' },
      { name: 'store', description: 'Store: products priced by artists, checkout (sandbox or Stripe), orders, downloads, payouts' },
      { name: 'station-admin', description: 'Module A: station control (configuration, radio on/off, status, safety test)' },
      { name: 'station-dataset', description: 'Module B: the training dataset (sources, filters, quality gate, artists, snapshots, validation)' },
      { name: 'station-training', description: 'Module C: training jobs (audio, lyrics, style embedding) and model versions (deploy)' },
      { name: 'station-context', description: 'Module D: the live context, presets, history' },
      { name: 'station-generation', description: 'Modules E and F: music and lyrics generation' },
      { name: 'station-registry', description: 'Module G: the append-only, hash-chained registry of AI tracks' },
      { name: 'station-radio', description: 'Module H: the listener API, the live stream and the scheduler' },
      { name: 'station-transparency', description: 'Module I: what influenced each AI track, and the station statement' },
      { name: 'station-realtime', description: 'WebSocket channels (documented here as their upgrade requests)' },
    ],
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * What the routes' schemas cannot say in OpenAPI 3.1 by themselves, applied once to the finished document
 * so that generated clients (clients/js here, others elsewhere) get clean input:
 * - tuples: TypeBox writes them in draft-07 form (`items: [...]`, `additionalItems: false`); JSON Schema
 *   2020-12, which OpenAPI 3.1 uses, spells that `prefixItems: [...]` with `items: false`;
 * - the media wildcard: Fastify's `/media/*` becomes `/media/{*}`, which is no parameter name; it is
 *   documented as `/media/{key}` (the blob key, which may contain slashes);
 * - an `operationId` on every operation, from its method and path (`GET /v1/tracks/{id}/stream` ->
 *   `getTracksByIdStream`, station paths prefixed `Station`), unless the route names its own. The names are
 *   public API for generated clients: a route that moves keeps its name by declaring it.
 */
export function normaliseOpenApi<T extends object>(document: T): T {
  const doc = document as unknown as JsonObject; // a plain JSON document: walked by key, whatever its static type
  const paths = (doc.paths ?? {}) as JsonObject;
  const renamed: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    if (path.includes('{*}')) {
      renamed[path.replace('{*}', '{key}')] = renameWildcardParameter(item as JsonObject);
    } else renamed[path] = item;
  }
  doc.paths = renamed;
  rewriteTuples(doc);
  const taken = new Set<string>();
  for (const item of Object.values(renamed)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as JsonObject)[method] as JsonObject | undefined;
      if (operation && typeof operation.operationId === 'string') taken.add(operation.operationId);
    }
  }
  for (const [path, item] of Object.entries(renamed)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as JsonObject)[method] as JsonObject | undefined;
      if (!operation || typeof operation.operationId === 'string') continue;
      const base = operationIdOf(method, path);
      let id = base;
      for (let n = 2; taken.has(id); n += 1) id = `${base}${n}`;
      taken.add(id);
      operation.operationId = id;
    }
  }
  return document;
}

function renameWildcardParameter(item: JsonObject): JsonObject {
  for (const method of HTTP_METHODS) {
    const operation = item[method] as JsonObject | undefined;
    for (const parameter of (operation?.parameters ?? []) as JsonObject[]) {
      if (parameter.in === 'path' && parameter.name === '*') {
        parameter.name = 'key';
        parameter.description = 'The blob key, as it appears in a signed media link (it may contain `/`)';
      }
    }
  }
  return item;
}

function rewriteTuples(node: Json): void {
  if (Array.isArray(node)) {
    for (const child of node) rewriteTuples(child);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node.items)) {
    node.prefixItems = node.items;
    node.items = node.additionalItems === undefined ? true : node.additionalItems;
    delete node.additionalItems;
  }
  for (const child of Object.values(node)) rewriteTuples(child);
}

function operationIdOf(method: string, path: string): string {
  const words: string[] = [method];
  const segments = path.split('/').filter(Boolean);
  let rest = segments;
  if (segments[0] === 'station' && segments[1] === 'v1') {
    words.push('station');
    rest = segments.slice(2);
  } else if (segments[0] === 'station') {
    words.push('station');
    rest = segments.slice(1);
  } else if (segments[0] === 'v1') rest = segments.slice(1);
  for (const segment of rest) {
    const parameter = /^\{(.+)\}$/.exec(segment);
    if (parameter) words.push('by', ...parameter[1].split(/[^A-Za-z0-9]+/));
    else words.push(...segment.split(/[^A-Za-z0-9]+/));
  }
  return words
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1)))
    .join('');
}
