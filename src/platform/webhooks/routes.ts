/** POST/GET /v1/webhooks, DELETE /v1/webhooks/{id}, GET /v1/webhooks/{id}/deliveries. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hasScope, isAdmin } from '../../auth/principal.js';
import { STATION_SCOPES } from '../../auth/scopes.js';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { WEBHOOK_EVENT_NAMES } from './event-names.js';
import { MAX_URL_LENGTH, type WebhookCaller, type WebhookService } from './service.js';

const EventName = Type.Unsafe<string>({ type: 'string', enum: [...WEBHOOK_EVENT_NAMES], description: 'A station or platform event name' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const RegisteredWebhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    secret: Type.String({ description: 'whsec_...; shown only in this answer. The HMAC key is this whole string (UTF-8).' }),
  },
  { title: 'RegisteredWebhook' },
);

const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    active: Type.Boolean(),
    environment: Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: "'test' when registered with a test key: it receives the sandbox's events only; 'live' otherwise: station events and the live platform's",
    }),
    owner_user_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Webhook' },
);

const DeliveryAttempt = Type.Object(
  {
    id: Type.String(),
    event: Type.String(),
    webhook_message_id: Type.String({ description: 'X-Webhook-Id, the same on every attempt of one event' }),
    attempt: Type.Integer({ description: '1 for the first attempt' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('retrying'), Type.Literal('failed')], {
      description: 'pending: not sent yet; retrying: failed, another attempt follows; failed: failed, the last attempt',
    }),
    response_status: Nullable(Type.Integer()),
    error: Nullable(
      Type.String({
        description:
          'null when delivered; otherwise one of refused_by_policy (STATION_WEBHOOK_ALLOWED_HOSTS admits no address the host ' +
          'resolves to), connection_failed, timeout, http_<status> (e.g. http_503, or http_307: redirects are not followed), ' +
          'webhook_disabled, internal_error',
      }),
    ),
    duration_ms: Nullable(Type.Integer()),
    next_attempt_at: Type.String({ format: 'date-time', description: 'when this attempt is (or was) due' }),
    attempted_at: Nullable(Type.String({ format: 'date-time' })),
    delivered_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'WebhookDeliveryAttempt' },
);

const DELIVERY_DESCRIPTION = [
  'Who hears what: track.published, track.removed and artist.verified reach any webhook; user.signup and',
  "user.subscribed only admin-owned ones; payment.success reaches the selling artist's owner and admins, and",
  "capsule.unlocked the capsule's artist's owner and admins (anyone may subscribe; the others' events are not",
  'sent to them); station.* events need a credential holding the station scope that reads the same facts: radio',
  'enabled/disabled and now_playing station:read, generation_* station:generate, training.* station:train,',
  "safety.flag_raised station:admin (sent while the owner's role holds it). Asking for an event the caller",
  'may not hear answers 400 naming it, and every event is checked again, against the owner as they are then.',
  'A webhook belongs to the environment of the credential that registers it. Registered with a test key, it',
  "receives the sandbox's platform events only (its tracks, capsules, orders...) and station events are refused",
  "(400: they come from the live radio); otherwise it receives station events and the live platform's, never the",
  "sandbox's. Each credential lists, removes and reads the deliveries of its own environment's webhooks only.",
  'Each delivery is a POST whose raw body is the JSON envelope, with `X-Webhook-Id` (stable across retries),',
  '`X-Webhook-Timestamp` (Unix seconds of the attempt) and `X-Station-Signature` (station.* events) or',
  '`X-Platform-Signature` (platform events): `sha256=<hex>` of HMAC-SHA256 over the raw body, keyed with the',
  'webhook\'s secret. Station envelopes are `{"event","timestamp","data","signature"}`, where `signature` signs',
  '`{"event","timestamp","data"}` exactly as the body starts; platform envelopes are `{"event","data","timestamp"}`.',
  'Redirects are not followed. A non-2xx answer, a redirect or no answer within 10 s is retried with exponential',
  'backoff and full jitter (base 30 s, doubling, capped at 6 h; 14 attempts over at most about a day).',
  "Where deliveries may go is the operator's STATION_WEBHOOK_ALLOWED_HOSTS; by default (`external`) public",
  'addresses only, never loopback, private (RFC 1918, fc00::/7), link-local (169.254.169.254), CGNAT, multicast',
  'or unspecified addresses, nor their IPv4-mapped forms. A URL whose host is such an address, or a name',
  'resolving only to such addresses, answers 400 VALIDATION_FAILED; every delivery checks the addresses the host',
  'resolves to at that moment and connects only to one it admits (a refused attempt records refused_by_policy).',
].join(' ');

function callerOf(request: FastifyRequest): WebhookCaller {
  const principal = request.principal!;
  return {
    userId: principal.userId,
    isAdmin: isAdmin(principal),
    stationScopes: STATION_SCOPES.filter((scope) => hasScope(principal, scope)),
    environment: principal.environment,
  };
}

export function webhookRoutes(webhooks: WebhookService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/webhooks',
      {
        config: { scope: 'webhooks:write' },
        schema: {
          tags: ['webhooks'],
          summary: 'Registers an endpoint for station and platform events; answers its secret, once',
          description: DELIVERY_DESCRIPTION,
          body: Type.Object(
            {
              url: Type.String({
                minLength: 1,
                maxLength: MAX_URL_LENGTH,
                description: 'absolute http(s) URL without credentials, on a host STATION_WEBHOOK_ALLOWED_HOSTS admits (public addresses by default)',
              }),
              events: Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENT_NAMES.length }),
            },
            { additionalProperties: false },
          ),
          response: { 201: RegisteredWebhook },
        },
      },
      async (request, reply) => reply.status(201).send(await webhooks.register(callerOf(request), request.body)),
    );

    app.get(
      '/v1/webhooks',
      {
        config: { scope: 'webhooks:read' },
        schema: {
          tags: ['webhooks'],
          summary: "Lists the caller's webhooks (admins: everyone's), newest first; never their secrets",
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(Webhook, 'WebhookList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await webhooks.list(callerOf(request), limit, offset)), page, limit };
      },
    );

    app.delete(
      '/v1/webhooks/:id',
      {
        config: { scope: 'webhooks:write' },
        schema: {
          tags: ['webhooks'],
          summary: 'Removes a webhook with its delivery history; pending retries are dropped',
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await webhooks.remove(callerOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/v1/webhooks/:id/deliveries',
      {
        config: { scope: 'webhooks:read' },
        schema: {
          tags: ['webhooks'],
          summary: 'Lists delivery attempts, newest first (one row per attempt)',
          params: IdParams('id'),
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(DeliveryAttempt, 'WebhookDeliveryList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await webhooks.deliveries(callerOf(request), request.params.id, limit, offset)), page, limit };
      },
    );
  };
}
