/**
 * Buying a release: POST /v1/checkout (the server sets the price; an Idempotency-Key makes a double click one
 * session) answers the processor's page, where the buyer pays; in the demo store that is the built-in sandbox
 * processor's page, never live money. It opens in a new tab, so the page (and the music) stays; the order and
 * its downloads then show in the store's "Your purchases", which reloads when the listener comes back to it.
 */
import { useState } from 'react';
import { idempotencyKey } from '../../shared/api';
import { Alert, useAction } from '../../shared/ui';
import type { CheckoutSession, Download, Order, Product } from '../api-types';
import { Link } from '../router';
import { api, session } from '../session';

export function price(amount: number, currency: string): string {
  return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
}

export function BuyButton({ product }: { product: { id: string; title: string; price: number; currency: string } }) {
  const [checkout, setCheckout] = useState<CheckoutSession | null>(null);
  const [key] = useState(idempotencyKey);
  const { busy, error, run } = useAction();
  const buy = async () => {
    const me = session.user();
    if (!me) return;
    const opened = await run(() =>
      api.post<CheckoutSession>('/v1/checkout', { product_id: product.id, price: product.price, user_id: me.id }, { headers: { 'idempotency-key': key } }),
    );
    if (opened) setCheckout(opened);
  };
  return (
    <div className="buy">
      {!checkout ? (
        <button type="button" className="primary" onClick={() => void buy()} disabled={busy}>
          Buy “{product.title}” · {price(product.price, product.currency)}
        </button>
      ) : (
        <p className="row">
          <a className="button primary" href={checkout.checkout_url} target="_blank" rel="noopener noreferrer">
            Pay {price(checkout.amount, checkout.currency)} at checkout{checkout.processor === 'sandbox' ? ' (sandbox, no real money)' : ''}
            <span className="visually-hidden"> (opens a new tab)</span>
          </a>
          <span className="muted">
            Then find the download under <Link to="/store">Store: your purchases</Link>.
          </span>
        </p>
      )}
      <Alert>{error}</Alert>
    </div>
  );
}

/** A purchased track: fetches its signed link (valid about 15 minutes) and starts the download. */
export function DownloadButton({ track }: { track: { id: string; title: string } }) {
  const [link, setLink] = useState<Download | null>(null);
  const { busy, error, run } = useAction();
  const fetchLink = async () => {
    const download = await run(() => api.get<Download>(`/v1/store/downloads/${encodeURIComponent(track.id)}`));
    if (!download) return;
    setLink(download);
    const anchor = document.createElement('a');
    anchor.href = download.url;
    anchor.download = '';
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  };
  return (
    <span className="row">
      <button type="button" onClick={() => void fetchLink()} disabled={busy}>
        Download<span className="visually-hidden"> {track.title}</span>
      </button>
      {link && (
        <a href={link.url} download>
          Link to “{link.title}”<span className="visually-hidden"> (valid about 15 minutes)</span>
        </a>
      )}
      <Alert>{error}</Alert>
    </span>
  );
}

export interface Purchase {
  order: Order;
  product: Product | null;
}

/** The caller's orders, newest first, each with the product it bought (null when it can no longer be read). */
export async function loadPurchases(): Promise<Purchase[]> {
  const list = await api.get<{ data: Order[] }>('/v1/store/orders?limit=50');
  const products = new Map<string, Product | null>();
  await Promise.all(
    [...new Set(list.data.map((o) => o.product_id))].map(async (id) =>
      products.set(id, await api.get<Product>(`/v1/store/products/${encodeURIComponent(id)}`).catch(() => null)),
    ),
  );
  return list.data.map((order) => ({ order, product: products.get(order.product_id) ?? null }));
}
