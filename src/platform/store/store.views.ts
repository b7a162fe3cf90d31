/**
 * The store's units and shapes: the currencies and product types it sells, prices as cents, and the JSON a
 * product, a checkout and an order are answered as.
 */
import type { CheckoutRow, OrderRow, ProductView } from './store.repository.js';

/** Currencies with two decimal places (the store counts in cents). */
export const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const PRODUCT_TYPES = ['album', 'ep', 'single'] as const;
export const MAX_PRODUCT_TRACKS = 100;
/** A price in currency units (9.99) as cents, or null when it is not a whole number of cents. */
export function priceToCents(price: number): number | null {
  const cents = Math.round(price * 100);
  return Number.isSafeInteger(cents) && Math.abs(price * 100 - cents) < 1e-6 ? cents : null;
}

export const centsToPrice = (cents: number) => cents / 100;

export function productJson(view: ProductView) {
  const { product, artist } = view;
  return {
    id: product.id,
    type: product.type,
    title: product.title,
    album_id: product.albumId,
    artist_id: artist.id,
    artist_slug: artist.slug,
    artist: artist.name,
    price: centsToPrice(product.priceCents),
    price_cents: product.priceCents,
    currency: product.currency,
    status: product.status,
    tracks: view.tracks.map((t) => ({ id: t.id, title: t.title, duration: Math.round(t.durationSec), position: t.position + 1 })),
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

export function checkoutJson(row: CheckoutRow) {
  return {
    session_id: row.processorSessionId!,
    checkout_url: row.checkoutUrl!,
    processor: row.processor,
    product_id: row.productId,
    amount: centsToPrice(row.amountCents),
    amount_cents: row.amountCents,
    currency: row.currency,
    status: row.status,
  };
}

export function orderJson(row: OrderRow) {
  return {
    id: row.id,
    product_id: row.productId,
    user_id: row.userId,
    amount: centsToPrice(row.amountCents),
    amount_cents: row.amountCents,
    currency: row.currency,
    processor: row.processor,
    livemode: row.livemode,
    created_at: row.createdAt.toISOString(),
  };
}
