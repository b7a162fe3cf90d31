/**
 * Sending: one POST per attempt, never following redirects, refusing anything but http(s), with a timeout.
 * The worker runs one queued job per attempt (jobs carry the attempt's id), records the outcome and, on a
 * non-2xx answer or a timeout, schedules the next attempt as a new row and a delayed job.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { familyOf, isWebhookEventName, type EventFamily } from './event-names.js';
import type { WebhookRepository } from './repository.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import type { SecretBox } from './secret-box.js';
import { signatureHeaderOf, signatureOf, stationBody } from './signing.js';

export const WEBHOOK_QUEUE = 'webhooks';
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
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; signal?: AbortSignal; now?: () => number },
): Promise<PostOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const elapsed = () => Math.max(0, Math.round(now() - started));
  if (!isDeliverableUrl(url)) {
    return { ok: false, responseStatus: null, error: 'refused: only http(s) URLs are delivered', durationMs: 0, interrupted: false };
  }
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout.signal, options.signal]) : timeout.signal;
  try {
    const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal });
    // Only the status matters; drop the body without reading it.
    await response.body?.cancel().catch(() => undefined);
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, responseStatus: status, error: null, durationMs: elapsed(), interrupted: false };
    const error = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
    return { ok: false, responseStatus: status, error, durationMs: elapsed(), interrupted: false };
  } catch (error) {
    if (options.signal?.aborted && !timeout.signal.aborted) {
      return { ok: false, responseStatus: null, error: 'interrupted by shutdown', durationMs: elapsed(), interrupted: true };
    }
    if (timeout.signal.aborted) {
      return { ok: false, responseStatus: null, error: `timed out after ${options.timeoutMs} ms`, durationMs: elapsed(), interrupted: false };
    }
    return { ok: false, responseStatus: null, error: describeNetworkError(error), durationMs: elapsed(), interrupted: false };
  } finally {
    clearTimeout(timer);
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `network error: ${cause.code}`;
  return `network error: ${cause?.message ?? (error instanceof Error ? error.message : String(error))}`;
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
  options: { timeoutMs?: number; clock?: Clock; signal?: AbortSignal } = {},
): Promise<PostOutcome & { webhookMessageId: string }> {
  const date = options.clock?.date() ?? new Date();
  const body = stationBody({ event, timestamp: date.toISOString(), data }, secret);
  const webhookMessageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const headers = deliveryHeaders('station', webhookMessageId, Math.floor(date.getTime() / 1000), body, secret);
  const outcome = await postWebhook(url, body, headers, { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: options.signal });
  return { ...outcome, webhookMessageId };
}

/** Puts one attempt on the queue, to run at its next_attempt_at (job id = attempt id: re-adding is harmless). */
export async function enqueueDelivery(queue: JobQueue, clock: Clock, attempt: { id: string; runAt: Date }): Promise<void> {
  await queue.add(
    WEBHOOK_QUEUE,
    DELIVER_JOB,
    { deliveryId: attempt.id },
    // Job-level retries cover our own trouble (database hiccups); receiver failures are new attempts.
    { jobId: attempt.id, delayMs: Math.max(0, attempt.runAt.getTime() - clock.now()), attempts: 3, backoffMs: 1_000 },
  );
}

export interface DeliveryWorkerOptions {
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
        await this.record(claimed.delivery, failure('the webhook is disabled', this.clock.date()), false);
        return;
      }
      let secret: string;
      try {
        secret = this.box.open(claimed.secretCiphertext, delivery.webhookId);
      } catch (error) {
        await this.record(delivery, failure(error instanceof Error ? error.message : String(error), this.clock.date()), true);
        return;
      }
      const family = isWebhookEventName(delivery.event) ? familyOf(delivery.event) : 'platform';
      const attemptedAt = this.clock.date();
      const headers = deliveryHeaders(family, delivery.webhookMessageId, Math.floor(attemptedAt.getTime() / 1000), delivery.payload, secret);
      const outcome = await postWebhook(claimed.url, delivery.payload, headers, {
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
