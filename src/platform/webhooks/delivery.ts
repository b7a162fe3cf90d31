/**
 * Sending: one POST per attempt under the egress policy (STATION_WEBHOOK_ALLOWED_HOSTS, checked against the
 * addresses resolved for this attempt, the connection pinned to the checked one), never following redirects,
 * refusing anything but http(s), with a timeout; failures are recorded as coarse kinds (DeliveryError).
 * The worker runs one queued job per attempt (jobs carry the attempt's id), records the outcome and, on a
 * non-2xx answer or a timeout, schedules the next attempt as a new row and a delayed job.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { EgressPolicy } from '../../infra/egress/egress-policy.js';
import { isHttpUrl, postPinned } from '../../infra/egress/pinned-post.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { familyOf, isWebhookEventName, type EventFamily } from './event-names.js';
import type { WebhookRepository } from './repository.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import type { SecretBox } from './secret-box.js';
import { signatureHeaderOf, signatureOf, stationBody } from './signing.js';
import { addJob, QUEUES } from '../../infra/queue/jobs.js';

export const WEBHOOK_QUEUE = QUEUES.webhooks;
export const DELIVER_JOB = 'deliver';
export const DEFAULT_TIMEOUT_MS = 10_000;
const USER_AGENT = 'Station-Webhooks/1.0';

export interface PostOutcome {
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  /** The attempt was cut short by our own shutdown: it says nothing about the receiver. */
  interrupted: boolean;
}

export function deliveryHeaders(
  family: EventFamily,
  webhookMessageId: string,
  timestampSec: number,
  body: string,
  secret: string | Buffer,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-webhook-id': webhookMessageId,
    'x-webhook-timestamp': String(timestampSec),
    [signatureHeaderOf(family).toLowerCase()]: signatureOf(body, secret),
  };
}

/** True for absolute http:// and https:// URLs without credentials, the only ones we deliver to. */
export function isDeliverableUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return isHttpUrl(url) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * A webhook address as logs may show it: origin and path only. The query string and fragment (where
 * receivers often put a token) and any credentials are dropped; what is not a URL is shown as a placeholder.
 */
export function loggableUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}${url.search || url.hash ? ' (query redacted)' : ''}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * What a failed attempt records, shown to the webhook's owner: coarse kinds only, never OS error text or an
 * address the owner did not give (the delivery log must not become a port scanner of our networks).
 */
export const DeliveryError = {
  refusedByPolicy: 'refused_by_policy',
  connectionFailed: 'connection_failed',
  timeout: 'timeout',
  http: (status: number) => `http_${status}`,
  webhookDisabled: 'webhook_disabled',
  internal: 'internal_error',
} as const;

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { egress: EgressPolicy; timeoutMs: number; signal?: AbortSignal; now?: () => number },
): Promise<PostOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const elapsed = () => Math.max(0, Math.round(now() - started));
  const failed = (error: string, responseStatus: number | null = null, interrupted = false): PostOutcome => ({
    ok: false,
    responseStatus,
    error,
    durationMs: elapsed(),
    interrupted,
  });
  if (!isDeliverableUrl(url)) return failed(DeliveryError.refusedByPolicy);
  const outcome = await postPinned(options.egress, new URL(url), { body, headers, timeoutMs: options.timeoutMs, signal: options.signal });
  switch (outcome.kind) {
    case 'response':
      if (outcome.status >= 200 && outcome.status < 300)
        return { ok: true, responseStatus: outcome.status, error: null, durationMs: elapsed(), interrupted: false };
      // Redirects too: they are not followed, so a 3xx is a failed attempt.
      return failed(DeliveryError.http(outcome.status), outcome.status);
    case 'interrupted':
      return failed('interrupted', null, true);
    case 'refused_by_policy':
      return failed(DeliveryError.refusedByPolicy);
    case 'timeout':
      return failed(DeliveryError.timeout);
    case 'connection_failed':
      return failed(DeliveryError.connectionFailed);
  }
}

/**
 * One signed POST of a station-style envelope, outside the registry (training's notify_webhook, signed with
 * STATION_WEBHOOK_SECRET). The same body and headers as a registered station delivery; a single attempt.
 */
export async function sendSignedPost(
  url: string,
  event: string,
  data: Record<string, unknown>,
  secret: string | Buffer,
  options: { egress: EgressPolicy; timeoutMs?: number; clock?: Clock; signal?: AbortSignal },
): Promise<PostOutcome & { webhookMessageId: string }> {
  const date = options.clock?.date() ?? new Date();
  const body = stationBody({ event, timestamp: date.toISOString(), data }, secret);
  const webhookMessageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const headers = deliveryHeaders('station', webhookMessageId, Math.floor(date.getTime() / 1000), body, secret);
  const outcome = await postWebhook(url, body, headers, {
    egress: options.egress,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: options.signal,
  });
  return { ...outcome, webhookMessageId };
}

/** Puts one attempt on the queue, to run at its next_attempt_at (job id = attempt id: re-adding is harmless). */
export async function enqueueDelivery(queue: JobQueue, clock: Clock, attempt: { id: string; runAt: Date }): Promise<void> {
  await addJob(
    queue,
    WEBHOOK_QUEUE,
    DELIVER_JOB,
    { deliveryId: attempt.id },
    // Job-level retries cover our own trouble (database hiccups); receiver failures are new attempts.
    { jobId: attempt.id, delayMs: Math.max(0, attempt.runAt.getTime() - clock.now()), attempts: 3, backoffMs: 1_000 },
  );
}

export interface DeliveryWorkerOptions {
  egress: EgressPolicy;
  timeoutMs: number;
  retry: RetryPolicy;
}

export class WebhookDeliveryWorker {
  private readonly shutdown = new AbortController();

  constructor(
    private readonly repo: WebhookRepository,
    private readonly box: SecretBox,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly options: DeliveryWorkerOptions,
  ) {}

  /** The job handler: at most one worker (on any instance) sends a given attempt. */
  async deliver(deliveryId: string): Promise<void> {
    const now = this.clock.date();
    // The claim outlives the attempt's timeout; an expired claim means its worker died, and it is taken over.
    const lockUntil = new Date(now.getTime() + this.options.timeoutMs + 30_000);
    const claimed = await this.repo.claim(deliveryId, now, lockUntil);
    if (!claimed) return;
    const { delivery } = claimed;
    try {
      if (!claimed.active) {
        await this.record(claimed.delivery, failure(DeliveryError.webhookDisabled, this.clock.date()), false);
        return;
      }
      let secret: string;
      try {
        secret = this.box.open(claimed.secretCiphertext, delivery.webhookId);
      } catch {
        // The secret does not open under this instance's key (DATA_DIR/webhook-secrets differs): ours to fix.
        await this.record(delivery, failure(DeliveryError.internal, this.clock.date()), true);
        return;
      }
      const family = isWebhookEventName(delivery.event) ? familyOf(delivery.event) : 'platform';
      const attemptedAt = this.clock.date();
      const headers = deliveryHeaders(family, delivery.webhookMessageId, Math.floor(attemptedAt.getTime() / 1000), delivery.payload, secret);
      const outcome = await postWebhook(claimed.url, delivery.payload, headers, {
        egress: this.options.egress,
        timeoutMs: this.options.timeoutMs,
        signal: this.shutdown.signal,
      });
      if (outcome.interrupted) {
        // Not the receiver's fault: leave the attempt pending for the next start (or another instance).
        await this.repo.release(delivery.id);
        return;
      }
      const result = {
        responseStatus: outcome.responseStatus,
        error: outcome.error,
        durationMs: outcome.durationMs,
        attemptedAt,
      };
      await this.record(delivery, outcome.ok ? { ...result, status: 'succeeded' } : { ...result, status: 'retrying' }, true);
    } catch (error) {
      await this.repo.release(delivery.id).catch(() => undefined);
      throw error;
    }
  }

  /** Aborts in-flight POSTs; their attempts stay pending and are sent again after the restart. */
  stop(): void {
    this.shutdown.abort();
  }

  private async record(
    delivery: Parameters<WebhookRepository['recordAttempt']>[0],
    result: Parameters<WebhookRepository['recordAttempt']>[1],
    retryable: boolean,
  ): Promise<void> {
    let nextAttemptAt: Date | null = null;
    if (result.status !== 'succeeded') {
      const delay = retryable ? retryDelayMs(delivery.attempt, this.options.retry) : null;
      if (delay === null) result = { ...result, status: 'failed' };
      else nextAttemptAt = new Date(this.clock.now() + delay);
    }
    const next = await this.repo.recordAttempt(delivery, result, nextAttemptAt);
    if (next) await enqueueDelivery(this.queue, this.clock, { id: next.id, runAt: next.nextAttemptAt });
  }
}

function failure(error: string, attemptedAt: Date) {
  return { status: 'retrying' as const, responseStatus: null, error, durationMs: 0, attemptedAt };
}
