/** The buyer's side of the store: their orders, and signed download links to the tracks they bought. */
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import { Errors } from '../../errors.js';
import type { BuyerRepository } from './buyer.repository.js';
import type { DownloadFiles } from './download-files.js';
import type { StoreCaller } from './store.types.js';
import { orderJson } from './store.views.js';

/** A download link's validity (the signer rounds expiries up to its 10-minute step). */
export const DOWNLOAD_TTL_SEC = 900;

/** The uploads' read port: a track's uploaded master (src/platform/uploads/module.ts publishes it). */
export interface UploadedMasters {
  /** The master's blob key, or null when the track was not uploaded. */
  masterOf(trackId: string): Promise<string | null>;
}

export class PurchasesService {
  constructor(
    private readonly repo: BuyerRepository,
    private readonly processors: PaymentProcessors,
    private readonly signer: UrlSigner,
    private readonly downloads: DownloadFiles,
    /** The uploads' read port: what a purchase of an uploaded track downloads. */
    private readonly masters: UploadedMasters,
  ) {}

  /** Whether the orders of an environment entitle their buyers (downloads, capsules) whatever paid them. */
  private get sandboxEntitles(): boolean {
    return this.processors.sandboxLive;
  }

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
    const key = await this.downloads.keyFor({ ...purchase, masterBlobKey: await this.masters.masterOf(purchase.trackId) });
    if (!key) throw Errors.notFound('Audio of track', trackId);
    const link = this.signer.sign(key, DOWNLOAD_TTL_SEC);
    return { track_id: purchase.trackId, order_id: purchase.orderId, title: purchase.title, url: link.url, expires_at: link.expiresAt.toISOString() };
  }
}
