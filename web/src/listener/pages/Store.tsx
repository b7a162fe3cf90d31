/**
 * The store: releases on sale (GET /v1/store/products), each with its tracks and a Buy button (checkout in a
 * new tab, buying.tsx), and the listener's purchases (GET /v1/store/orders) with a download per track. The
 * purchases reload when the window gets focus back, so returning from the checkout tab shows the new order.
 */
import { useEffect } from 'react';
import { query } from '../../shared/api';
import { clock, useLoad, when } from '../../shared/ui';
import type { Product } from '../api-types';
import { Link, paths, useLocation } from '../router';
import { api } from '../session';
import { BuyButton, DownloadButton, loadPurchases, price, type Purchase } from './buying';
import { Loading, Page } from './Page';

export default function Store() {
  const { search } = useLocation();
  const artist = search.get('artist') ?? '';
  const products = useLoad(() => api.get<{ data: Product[]; total: number }>(`/v1/store/products${query({ artist, limit: 50 })}`), [artist]);
  const purchases = useLoad(loadPurchases, []);
  const { reload } = purchases;
  useEffect(() => {
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, [reload]);
  return (
    <Page title="Store">
      {/* Both lists at once, so the one that answers last does not push the other about. */}
      {!products.data || !purchases.data ? (
        <Loading error={products.error ?? purchases.error} />
      ) : (
        <div className="stack">
          <Purchases purchases={purchases.data} reload={reload} busy={purchases.loading} />
          <section aria-labelledby="on-sale">
            <h3 id="on-sale">On sale{artist ? ` from ${products.data.data[0]?.artist ?? artist}` : ''}</h3>
            {products.data.data.length === 0 ? (
              <p className="muted">Nothing on sale yet.</p>
            ) : (
              <ul className="cards">
                {products.data.data.map((product) => (
                  <li key={product.id} className="card product">
                    <h4>{product.title}</h4>
                    <p className="muted">
                      {product.type} · by <Link to={paths.artist(product.artist_slug)}>{product.artist}</Link>
                      {product.album_id && (
                        <>
                          {' '}
                          · <Link to={paths.album(product.album_id)}>release page</Link>
                        </>
                      )}
                    </p>
                    <ol className="product-tracks">
                      {product.tracks.map((t) => (
                        <li key={t.id}>
                          <Link to={paths.track(t.id)}>{t.title}</Link> <span className="muted">{clock(t.duration)}</span>
                        </li>
                      ))}
                    </ol>
                    <BuyButton product={product} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Page>
  );
}

function Purchases({ purchases, reload, busy }: { purchases: Purchase[]; reload: () => void; busy: boolean }) {
  return (
    <section className="card" aria-labelledby="purchases">
      <div className="page-head">
        <h3 id="purchases">Your purchases</h3>
        <button type="button" onClick={reload} disabled={busy}>
          Refresh
        </button>
      </div>
      {purchases.length === 0 ? (
        <p className="muted">No purchases yet.</p>
      ) : (
        <ul className="purchases">
          {purchases.map(({ order, product }) => (
            <li key={order.id}>
              <p>
                <strong>{product?.title ?? 'A release'}</strong>
                {product && <span className="muted"> · {product.artist}</span>} · {price(order.amount, order.currency)} ·{' '}
                <time dateTime={order.created_at}>{when(order.created_at)}</time>
                {!order.livemode && <span className="muted"> · sandbox order, no real money</span>}
              </p>
              {product && (
                <ol className="product-tracks">
                  {product.tracks.map((t) => (
                    <li key={t.id} className="row">
                      <span>{t.title}</span> <DownloadButton track={t} />
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
