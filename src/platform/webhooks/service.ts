/** Registering, listing and removing webhooks, and reading their delivery attempts. No HTTP, no SQL. */
import { randomUUID } from 'node:crypto';
import { Errors } from '../../errors.js';
import { refusedDestinationDetail, type EgressPolicy } from '../../infra/egress/egress-policy.js';
import { isDeliverableUrl } from './delivery.js';
import { registrationRefusal } from './event-audience.js';
import { isWebhookEventName, WEBHOOK_EVENT_NAMES, type WebhookEventName } from './event-names.js';
import type { DeliveryRow, WebhookRepository, WebhookRow } from './repository.js';
import type { Environment } from '../../kernel/environment.js';
import type { SecretBox } from './secret-box.js';
import { newWebhookSecret } from './signing.js';

/**
 * Who asks: webhooks belong to a user; admins (platform:admin) see and remove everyone's. Each belongs to the
 * environment of the credential that registered it (a test key: the sandbox), and is seen only from there.
 */
export interface WebhookCaller {
  userId: string | null;
  isAdmin: boolean;
  /** The station scopes the credential holds: which station events it may subscribe to (event-audience.ts). */
  stationScopes: readonly string[];
  environment: Environment;
}

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  /** 'test': registered with a test key, it receives the sandbox's events; 'live': station and live platform events. */
  environment: Environment;
  owner_user_id: string;
  created_at: string;
}

export interface DeliveryView {
  id: string;
  event: string;
  webhook_message_id: string;
  attempt: number;
  status: DeliveryRow['status'];
  response_status: number | null;
  error: string | null;
  duration_ms: number | null;
  next_attempt_at: string;
  attempted_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

export const MAX_URL_LENGTH = 2048;

export class WebhookService {
  constructor(
    private readonly repo: Pick<WebhookRepository, 'insertWebhook' | 'listWebhooks' | 'findWebhook' | 'deleteWebhook' | 'listDeliveries'>,
    private readonly box: SecretBox,
    private readonly egress: Pick<EgressPolicy, 'screen'>,
  ) {}

  /** The secret is in this answer and nowhere else, ever. */
  async register(caller: WebhookCaller, input: { url: string; events: string[] }) {
    if (caller.userId === null) throw Errors.forbidden('webhooks belong to a user: use a user token or a user-owned API key');
    const url = endpointUrl(input.url);
    const events = knownEvents(input.events);
    // Who may hear what (event-audience.ts); the dispatcher asks again for every event, of the owner as they are then.
    const refused = events.flatMap((event) => {
      const reason = registrationRefusal(event, caller);
      return reason === null ? [] : [`${event} (${reason})`];
    });
    if (refused.length > 0) throw Errors.validation(`events this webhook's owner may not hear: ${refused.join('; ')}`, 'Invalid webhook events');
    if ((await this.egress.screen(new URL(url).hostname)) === 'refused') {
      throw Errors.validation(refusedDestinationDetail('url'), 'Invalid webhook URL');
    }
    const id = randomUUID();
    const secret = newWebhookSecret();
    const row = await this.repo.insertWebhook({
      id,
      ownerUserId: caller.userId,
      url,
      events,
      environment: caller.environment,
      secretCiphertext: this.box.seal(secret, id),
    });
    return { id: row.id, url: row.url, events: row.events, secret };
  }

  async list(caller: WebhookCaller, limit: number, offset: number): Promise<{ data: WebhookView[]; total: number }> {
    if (!caller.isAdmin && caller.userId === null) return { data: [], total: 0 };
    const { rows, total } = await this.repo.listWebhooks(caller.isAdmin ? null : caller.userId, caller.environment, limit, offset);
    return { data: rows.map(webhookView), total };
  }

  async remove(caller: WebhookCaller, id: string): Promise<void> {
    await this.visibleWebhook(caller, id);
    if (!(await this.repo.deleteWebhook(id))) throw Errors.notFound('Webhook', id);
  }

  async deliveries(caller: WebhookCaller, id: string, limit: number, offset: number): Promise<{ data: DeliveryView[]; total: number }> {
    await this.visibleWebhook(caller, id);
    const { rows, total } = await this.repo.listDeliveries(id, limit, offset);
    return { data: rows.map(deliveryView), total };
  }

  /** Someone else's webhook, or one of the other environment, answers 404 like a missing one: its existence is not disclosed. */
  private async visibleWebhook(caller: WebhookCaller, id: string): Promise<WebhookRow> {
    const row = await this.repo.findWebhook(id);
    if (!row || row.environment !== caller.environment || (!caller.isAdmin && row.ownerUserId !== caller.userId)) throw Errors.notFound('Webhook', id);
    return row;
  }
}

function endpointUrl(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.length > MAX_URL_LENGTH || !isDeliverableUrl(trimmed)) {
    throw Errors.validation('url must be an absolute http:// or https:// URL without credentials', 'Invalid webhook URL');
  }
  return new URL(trimmed).href;
}

function knownEvents(events: string[]): WebhookEventName[] {
  const unique = [...new Set(events)];
  if (unique.length === 0) throw Errors.validation('events must name at least one event', 'Invalid webhook events');
  const unknown = unique.filter((event) => !isWebhookEventName(event));
  if (unknown.length > 0) {
    throw Errors.validation(`unknown events: ${unknown.join(', ')}; known: ${WEBHOOK_EVENT_NAMES.join(', ')}`, 'Invalid webhook events');
  }
  return unique as WebhookEventName[];
}

function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    environment: row.environment,
    owner_user_id: row.ownerUserId,
    created_at: row.createdAt.toISOString(),
  };
}

const COARSE_ERROR = /^(refused_by_policy|connection_failed|timeout|http_\d{3}|webhook_disabled|internal_error)$/;

/** Rows written before errors were coarse may hold network error text: it is not shown as it is. */
function coarseError(row: DeliveryRow): string | null {
  if (row.error === null || COARSE_ERROR.test(row.error)) return row.error;
  if (row.responseStatus !== null) return `http_${row.responseStatus}`;
  return /timed out/i.test(row.error) ? 'timeout' : 'connection_failed';
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event: row.event,
    webhook_message_id: row.webhookMessageId,
    attempt: row.attempt,
    status: row.status,
    response_status: row.responseStatus,
    error: coarseError(row),
    duration_ms: row.durationMs,
    next_attempt_at: row.nextAttemptAt.toISOString(),
    attempted_at: row.attemptedAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
