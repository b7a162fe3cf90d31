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
        '`{"data","total","page","limit"}`. Codes beyond the specification: `*_INVALID_CREDENTIALS` (401, a',
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
      { name: 'users', description: 'The current user and their profile' },
      { name: 'admin', description: 'Platform administration (platform:admin)' },
      { name: 'tracks', description: 'Platform catalog: tracks' },
      { name: 'artists', description: 'Platform catalog: artists' },
      { name: 'library', description: "Listeners: the caller's saved tracks" },
      { name: 'listeners', description: 'Listener profiles, play history and playlists, with privacy' },
      { name: 'playlists', description: 'Playlists: create, rename, add, remove, reorder, public or private' },
      { name: 'capsules', description: 'Sonic Capsules with Tap-to-Reveal' },
      { name: 'webhooks', description: 'Webhook registry (station and platform events) and delivery log' },
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
