/** The artist's side of the money: the payout account's onboarding link and the payout history of each sale. */
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import { PaymentProcessorError } from '../../infra/payments/processor.js';
import { DomainError } from '../../errors.js';
import type { StoreArtists } from './store-artists.js';
import type { StoreRepository } from './store.repository.js';
import { processorOfCaller } from './store-processors.js';
import type { StoreCaller } from './store.types.js';

/** The store repository's part that payouts use. */
export type PayoutsRepository = Pick<StoreRepository, 'payoutAccount' | 'savePayoutAccount' | 'payouts'>;

export class PayoutsService {
  constructor(
    private readonly repo: PayoutsRepository,
    private readonly artists: StoreArtists,
    private readonly processors: PaymentProcessors,
    private readonly baseUrl: string,
  ) {}

  async onboard(caller: StoreCaller, artistId: string | undefined) {
    const artist = await this.artists.artistFor(caller, artistId);
    const { processor } = processorOfCaller(this.processors, caller, 'A payout account');
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
    const artistIds = await this.artists.payoutArtists(caller, artist);
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
