/**
 * The store: products priced by their artist, checkout through a payment processor (the sandbox, or Stripe
 * when configured), orders created once per paid session, the buyer's downloads, and the artist's payouts.
 * The server decides every amount: a client's price is only compared, never used.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { PaymentProcessor, ProcessorName } from '../../infra/payments/processor.js';
import { PaymentProcessorError } from '../../infra/payments/processor.js';
import { processorFor, type PaymentProcessors } from '../../infra/payments/processors.js';
import type { SandboxProcessor } from '../../infra/payments/sandbox-processor.js';
import type { StripeProcessor } from '../../infra/payments/stripe-processor.js';
import { DomainError, Errors } from '../../errors.js';
import { PLATFORM_EVENTS_CHANNEL, type PlatformEvent } from '../webhooks/platform-events.js';
import { platformSplit } from './split.js';
import type { ArtistRef, CheckoutRow, OrderRow, ProductRow, ProductView, StoreRepository } from './store.repository.js';
import type { Environment } from '../../kernel/environment.js';
import { noLivePaymentProcessor, type StoreCaller, type ProductInput, type ProductPatch, type CheckoutInput, type StripeSubscriptionHandler, type StoreLog } from './store.types.js';
import type { DownloadFiles } from './download-files.js';
import { centsToPrice, checkoutJson, orderJson, priceToCents, productJson } from './store.views.js';

/** A download link's validity (the signer rounds expiries up to its 10-minute step). */
export const DOWNLOAD_TTL_SEC = 900;

export class StoreService {
  constructor(
    private readonly repo: StoreRepository,
    private readonly processors: PaymentProcessors,
    private readonly bus: EventBus,
    private readonly signer: UrlSigner,
    private readonly downloads: DownloadFiles,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly subscriptions: StripeSubscriptionHandler | null = null,
  ) {}

  get sandbox(): SandboxProcessor {
    return this.processors.sandbox;
  }

  get stripe(): StripeProcessor | null {
    return this.processors.stripe;
  }

  // ---- products ----

  async listProducts(filter: { environment: Environment; artist?: string; type?: ProductRow['type'] }, limit: number, offset: number) {
    const { rows, total } = await this.repo.listProducts({ ...filter, statuses: ['active'] }, limit, offset);
    return { data: rows.map(productJson), total };
  }

  /** Active products for everyone; an archived one only for its artist's owner and admins. */
  async getProduct(id: string, caller: StoreCaller) {
    const view = await this.repo.product(id, caller.environment);
    if (!view || !this.canSee(view, caller)) throw Errors.notFound('Product', id);
    return productJson(view);
  }

  async createProduct(caller: StoreCaller, input: ProductInput) {
    const artist = await this.artistFor(caller, input.artist_id);
    const priceCents = this.centsOf(input.price);
    const release = input.album_id === undefined ? null : await this.repo.release(input.album_id, caller.environment);
    if (input.album_id !== undefined && (!release || release.artistId !== artist.id)) throw Errors.notFound('Album', input.album_id);
    const title = input.title ?? release?.title;
    const type = input.type ?? release?.type;
    const given = input.track_ids ?? release?.trackIds;
    if (!title || !type || !given) throw Errors.validation('title, type and track_ids are required unless album_id names the release sold');
    if (given.length === 0) throw Errors.validation('the release has no published track to sell');
    const trackIds = await this.checkTracks(artist.id, given);
    const id = await this.repo.insertProduct(
      { artistId: artist.id, albumId: release?.id ?? null, type, title: title.trim(), priceCents, currency: input.currency ?? 'usd' },
      trackIds,
    );
    return productJson((await this.repo.product(id, caller.environment))!);
  }

  async updateProduct(caller: StoreCaller, id: string, patch: ProductPatch) {
    const view = await this.repo.product(id, caller.environment);
    if (!view || !this.canSee(view, caller)) throw Errors.notFound('Product', id);
    if (!this.owns(view.artist, caller)) throw Errors.forbidden('only the artist who sells this product, or an admin, may change it');
    const values: Partial<ProductRow> = {};
    if (patch.title !== undefined) values.title = patch.title.trim();
    if (patch.price !== undefined) values.priceCents = this.centsOf(patch.price);
    if (patch.status !== undefined) values.status = patch.status;
    const trackIds = patch.track_ids === undefined ? undefined : await this.checkTracks(view.artist.id, patch.track_ids);
    await this.repo.updateProduct(view.product.id, values, trackIds, this.clock.date());
    return productJson((await this.repo.product(view.product.id, caller.environment))!);
  }

  private canSee(view: ProductView, caller: StoreCaller): boolean {
    return view.product.status === 'active' || this.owns(view.artist, caller);
  }

  private owns(artist: ArtistRef, caller: StoreCaller): boolean {
    return caller.isAdmin || (caller.userId !== null && artist.ownerUserId === caller.userId);
  }

  /** The artist the caller acts for: the one named (theirs, or any for an admin), or their only one. */
  private async artistFor(caller: StoreCaller, artistId: string | undefined): Promise<ArtistRef> {
    // A test key sells in the sandbox, as the sandbox twins of its owner's artists.
    if (caller.environment === 'test' && caller.userId !== null) await this.repo.ensureSandboxTwins(caller.userId);
    if (artistId !== undefined) {
      const artist = await this.repo.artistByIdOrSlug(artistId, caller.environment);
      if (!artist || !this.owns(artist, caller)) throw Errors.notFound('Artist', artistId);
      return artist;
    }
    if (caller.userId === null) throw Errors.forbidden('products belong to an artist account: use a user token or name artist_id');
    const owned = await this.repo.artistsOwnedBy(caller.userId, caller.environment);
    if (owned.length === 1) return owned[0];
    if (owned.length === 0) throw Errors.forbidden('this account manages no artist');
    throw Errors.validation('this account manages several artists: name one with artist_id', 'artist_id is required');
  }

  private centsOf(price: number): number {
    const cents = priceToCents(price);
    if (cents === null || cents < 50 || cents > 100_000_000) {
      throw Errors.validation('price must be a whole number of cents from 0.50 to 1,000,000.00', 'Invalid price');
    }
    return cents;
  }

  /** The tracks, deduplicated in order; each must be the artist's, published, with credits summing to 100% or none. */
  private async checkTracks(artistId: string, given: string[]): Promise<string[]> {
    const trackIds = [...new Set(given)];
    const found = new Set(await this.repo.publishedTracksOf(artistId, trackIds));
    const missing = trackIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw Errors.notFound('Track', missing[0]);
    const credits = await this.repo.creditsOf(trackIds);
    for (const [trackId, list] of credits) {
      const sum = list.reduce((a, c) => a + c.basisPoints, 0);
      if (list.length > 0 && sum !== 10_000) {
        throw new DomainError(
          'conflict',
          'SPLITS_INVALID',
          'The songwriter splits of a track must sum to 100%',
          `track ${trackId}: credits sum to ${(sum / 100).toFixed(2)}%`,
        );
      }
    }
    return trackIds;
  }

  // ---- checkout ----

  /**
   * The processor of a request: the sandbox in the sandbox's data space; Stripe in the live one, or the sandbox
   * for a demo store (never live money); 503 when live payments have no processor here.
   */
  private processorFor(caller: StoreCaller, what: string): { processor: PaymentProcessor; livemode: boolean } {
    const choice = processorFor(this.processors, caller.environment);
    if (!choice) throw noLivePaymentProcessor(what);
    return choice;
  }

  /** Whether the orders of an environment entitle their buyers (downloads, capsules) whatever paid them. */
  private get sandboxEntitles(): boolean {
    return this.processors.sandboxLive;
  }

  private processorNamed(name: ProcessorName): PaymentProcessor {
    if (name === 'sandbox') return this.processors.sandbox;
    if (!this.processors.stripe) throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor of this session is not configured');
    return this.processors.stripe;
  }

  async checkout(caller: StoreCaller, input: CheckoutInput, idempotencyKey: string | null) {
    if (caller.userId === null) throw Errors.forbidden('checkout is for a user: use a user token or a user-owned API key');
    if (input.user_id !== caller.userId) throw Errors.forbidden('user_id must be the calling user');
    const view = await this.repo.product(input.product_id, caller.environment);
    if (!view || view.product.status !== 'active') throw Errors.notFound('Product', input.product_id);
    const { product } = view;
    if (priceToCents(input.price) !== product.priceCents) {
      throw new DomainError(
        'conflict',
        'PRICE_MISMATCH',
        'The price does not match the product: the server sets prices',
        `this product costs ${centsToPrice(product.priceCents).toFixed(2)} ${product.currency}`,
      );
    }
    const requestHash = createHash('sha256')
      .update(JSON.stringify([input.product_id, product.priceCents, input.user_id]))
      .digest('hex');

    let row: CheckoutRow | null = null;
    if (idempotencyKey !== null) {
      row = await this.repo.checkoutByKey(caller.userId, idempotencyKey);
      if (row && row.requestHash !== requestHash) throw idempotencyReused();
    }
    if (!row) {
      const { processor, livemode } = this.processorFor(caller, 'A store purchase');
      if (processor.requiresPayoutAccount && !(await this.repo.payoutAccount(product.artistId, processor.name))) {
        throw new DomainError('conflict', 'ARTIST_NOT_ONBOARDED', 'This artist cannot receive payments yet', 'the artist has not set up a payout account');
      }
      const { platformFeeCents } = platformSplit(product.priceCents);
      const values = {
        userId: caller.userId,
        productId: product.id,
        artistId: product.artistId,
        amountCents: product.priceCents,
        platformFeeCents,
        currency: product.currency,
        processor: processor.name,
        livemode,
        environment: caller.environment,
        idempotencyKey,
        requestHash,
        createdAt: this.clock.date(),
      };
      row = await this.repo.insertCheckout(values);
      // Another request with the same key won the insert: answer its session.
      if (!row && idempotencyKey !== null) row = await this.repo.checkoutByKey(caller.userId, idempotencyKey);
      if (!row) throw new Error('checkout session insert answered nothing');
      if (row.requestHash !== requestHash) throw idempotencyReused();
    }
    if (row.processorSessionId === null || row.checkoutUrl === null) row = await this.openAtProcessor(row, view);
    return checkoutJson(row);
  }

  /** Creates the processor's session (idempotent on our session id, so concurrent or retried calls agree). */
  private async openAtProcessor(row: CheckoutRow, view: ProductView): Promise<CheckoutRow> {
    const processor = this.processorNamed(row.processor);
    const destination = processor.requiresPayoutAccount ? await this.repo.payoutAccount(row.artistId, processor.name) : null;
    try {
      const created = await processor.createCheckout({
        sessionId: row.id,
        amountCents: row.amountCents,
        currency: row.currency,
        productTitle: `${view.product.title} — ${view.artist.name}`,
        buyerUserId: row.userId,
        productId: row.productId,
        applicationFeeCents: row.platformFeeCents,
        destinationAccountId: destination,
        successUrl: `${this.baseUrl}/?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.baseUrl}/?checkout=cancelled`,
      });
      return await this.repo.setProcessorSession(row.id, created.processorSessionId, created.checkoutUrl);
    } catch (error) {
      if (error instanceof PaymentProcessorError) {
        throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor could not open a checkout; retry with the same Idempotency-Key');
      }
      throw error;
    }
  }

  // ---- completion ----

  /** The sandbox page's "Pay": completes the session its signed token names. */
  async payInSandbox(processorSessionId: string, token: string | undefined) {
    // An invalid or expired token says nothing about whether the session exists.
    if (!this.processors.sandbox.verify('checkout', processorSessionId, token)) throw Errors.notFound('Checkout session', processorSessionId);
    const session = await this.repo.checkoutByProcessorId(processorSessionId);
    if (!session || session.processor !== 'sandbox') throw Errors.notFound('Checkout session', processorSessionId);
    return this.complete(session, processorSessionId);
  }

  /** What the sandbox page shows before paying. */
  async sandboxCheckoutPage(processorSessionId: string, token: string | undefined) {
    // An invalid or expired token says nothing about whether the session exists.
    if (!this.processors.sandbox.verify('checkout', processorSessionId, token)) throw Errors.notFound('Checkout session', processorSessionId);
    const session = await this.repo.checkoutByProcessorId(processorSessionId);
    if (!session) throw Errors.notFound('Checkout session', processorSessionId);
    const view = await this.repo.product(session.productId);
    return { session, view: view! };
  }

  /**
   * A verified Stripe webhook. Only a paid checkout.session.completed acts; anything else is acknowledged
   * and ignored. A notice for a session we do not know is acknowledged too (Stripe would retry forever).
   */
  async stripeWebhook(rawBody: Buffer, signature: string | undefined, log: StoreLog) {
    const stripe = this.processors.stripe;
    if (!stripe) throw Errors.notFound('Stripe webhook endpoint');
    const outcome = stripe.verifyWebhook(rawBody, signature);
    if (outcome.kind === 'ignored') return { received: true, order_id: null };
    if (outcome.kind === 'subscription_completed') {
      await this.subscriptions?.stripeSubscriptionCompleted(outcome.subscription, log);
      return { received: true, order_id: null };
    }
    if (outcome.kind === 'subscription_ended') {
      await this.subscriptions?.stripeSubscriptionEnded(outcome.subscription, log);
      return { received: true, order_id: null };
    }
    const { payment } = outcome;
    const session = await this.repo.checkoutByProcessorId(payment.processorSessionId);
    if (!session || session.processor !== 'stripe') {
      log.warn({ event_id: payment.reference }, 'stripe checkout.session.completed for an unknown session; ignored');
      return { received: true, order_id: null };
    }
    if (payment.amountCents !== session.amountCents || payment.currency.toLowerCase() !== session.currency) {
      log.error({ event_id: payment.reference, session_id: session.id }, 'stripe reports another amount than the session’s; no order created');
      return { received: true, order_id: null };
    }
    const order = await this.complete(session, payment.reference);
    return { received: true, order_id: order.id };
  }

  /**
   * The order of a paid session, created on the first completion only, and payment.success. The event is
   * sent on every completion notice with the order's own timestamp, so it has one event id: the webhook
   * dispatcher keeps one delivery per event id, and a notice retried after a crash between the order's
   * commit and the event still sends it (at least once, never twice).
   */
  private async complete(session: CheckoutRow, reference: string): Promise<OrderRow> {
    const { order } = await this.repo.completeCheckout(session, reference, this.clock.date());
    const seller = await this.repo.artistByIdOrSlug(order.artistId, order.environment);
    const event: PlatformEvent = {
      event: 'payment.success',
      timestamp: order.createdAt.toISOString(),
      // The sandbox's order is heard by its webhooks, not the live ones; a demo store's order by the live
      // ones, with livemode false (no money moved).
      environment: order.environment,
      // Heard by the selling artist's owner and admins only (src/platform/webhooks/event-audience.ts).
      audience: { ownerUserId: seller?.ownerUserId ?? null },
      data: {
        order_id: order.id,
        user_id: order.userId,
        product_id: order.productId,
        amount: centsToPrice(order.amountCents),
        amount_cents: order.amountCents,
        currency: order.currency,
        livemode: order.livemode,
      },
    };
    await this.bus.publish(PLATFORM_EVENTS_CHANNEL, event);
    return order;
  }

  // ---- buyer ----

  async orders(caller: StoreCaller, limit: number, offset: number) {
    if (caller.userId === null) throw Errors.forbidden('orders belong to a user');
    const { rows, total } = await this.repo.ordersOf(caller.userId, caller.environment, limit, offset);
    return { data: rows.map(orderJson), total };
  }

  /**
   * A signed, expiring link to a purchased track's download file (download-files.ts: its master, never the
   * stream's object); another user's purchase, or one of the other environment, is not found.
   */
  async download(caller: StoreCaller, trackId: string) {
    const purchase = caller.userId === null ? null : await this.repo.purchasedTrack(caller.userId, trackId, caller.environment, this.sandboxEntitles);
    if (!purchase) throw Errors.notFound('Purchased track', trackId);
    const key = await this.downloads.keyFor(purchase);
    if (!key) throw Errors.notFound('Audio of track', trackId);
    const link = this.signer.sign(key, DOWNLOAD_TTL_SEC);
    return { track_id: purchase.trackId, order_id: purchase.orderId, title: purchase.title, url: link.url, expires_at: link.expiresAt.toISOString() };
  }

  // ---- artist ----

  async onboard(caller: StoreCaller, artistId: string | undefined) {
    const artist = await this.artistFor(caller, artistId);
    const { processor } = this.processorFor(caller, 'A payout account');
    const existing = await this.repo.payoutAccount(artist.id, processor.name);
    try {
      const link = await processor.createOnboardingLink({
        artistId: artist.id,
        existingAccountId: existing,
        refreshUrl: `${this.baseUrl}/?connect=refresh`,
        returnUrl: `${this.baseUrl}/?connect=return`,
      });
      if (!existing) await this.repo.savePayoutAccount(artist.id, processor.name, link.accountId);
      return { url: link.url, artist_id: artist.id, processor: processor.name, expires_at: link.expiresAt?.toISOString() ?? null };
    } catch (error) {
      if (error instanceof PaymentProcessorError) {
        throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor could not create an onboarding link; retry later');
      }
      throw error;
    }
  }

  async payouts(caller: StoreCaller, artist: string | undefined, limit: number, offset: number) {
    let artistIds: string[] | null;
    if (artist !== undefined) {
      const found = await this.repo.artistByIdOrSlug(artist, caller.environment);
      if (!found || !this.owns(found, caller)) throw Errors.notFound('Artist', artist);
      artistIds = [found.id];
    } else if (caller.isAdmin) {
      artistIds = null;
    } else {
      if (caller.userId === null) throw Errors.forbidden('payouts belong to an artist account');
      artistIds = (await this.repo.artistsOwnedBy(caller.userId, caller.environment)).map((a) => a.id);
    }
    const { rows, total } = await this.repo.payouts(artistIds, caller.environment, limit, offset);
    return {
      data: rows.map((row) => ({
        order_id: row.id,
        product_id: row.productId,
        artist_id: row.artistId,
        sold_at: row.createdAt.toISOString(),
        currency: row.currency,
        amount_cents: row.amountCents,
        platform_fee_cents: row.platformFeeCents,
        artist_share_cents: row.artistShareCents,
        splits: row.lines.map((line) => ({
          track_id: line.trackId,
          track_title: line.trackTitle,
          songwriter_id: line.songwriterId,
          songwriter_name: line.songwriterName,
          split_pct: line.splitBasisPoints / 100,
          amount_cents: line.amountCents,
        })),
      })),
      total,
    };
  }
}

function idempotencyReused(): DomainError {
  return new DomainError(
    'conflict',
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used with another request body',
    'use a new key for a different checkout',
  );
}
