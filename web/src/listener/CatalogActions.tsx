/**
 * What a listener can do from a catalog track's card, through the platform API: open the track's and the
 * artist's pages, follow the artist, save the track to the library, and buy the release when the store sells
 * one holding the track (checkout opens the processor's page in a new tab, so the radio keeps playing).
 */
import { useEffect, useState } from 'react';
import { type Page, idempotencyKey, query } from '../shared/api';
import { Alert, useAction } from '../shared/ui';
import { api } from './session';
import { Link, paths } from './router';
import type { Product, TrackDetail } from './api-types';

export function CatalogActions({ trackId }: { trackId: string }) {
  const [track, setTrack] = useState<TrackDetail | null>(null);
  const [product, setProduct] = useState<Product | null>(null);
  const [following, setFollowing] = useState<boolean | null>(null);
  const [saved, setSaved] = useState(false);
  const [checkout, setCheckout] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  useEffect(() => {
    let live = true;
    void api
      .get<TrackDetail>(`/v1/tracks/${encodeURIComponent(trackId)}`)
      .then(async (detail) => {
        if (!live) return;
        setTrack(detail);
        const products = await api.get<Page<Product>>(`/v1/store/products${query({ artist: detail.artist_slug, limit: 100 })}`);
        const match = products.data.find((p) => p.status === 'active' && p.tracks.some((t) => t.id === trackId));
        if (live) setProduct(match ?? null);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [trackId]);

  if (!track) return null;
  const slug = encodeURIComponent(track.artist_slug);

  const toggleFollow = async () => {
    const state = await run(() =>
      following ? api.delete<{ following: boolean }>(`/v1/artists/${slug}/follow`) : api.post<{ following: boolean }>(`/v1/artists/${slug}/follow`),
    );
    if (state) setFollowing(state.following);
  };
  const save = async () => {
    if ((await run(() => api.post(`/v1/users/me/library/${encodeURIComponent(trackId)}`))) !== null) setSaved(true);
  };
  const buy = async () => {
    if (!product) return;
    const me = await run(() => api.get<{ id: string }>('/v1/users/me'));
    if (!me) return;
    const session = await run(() =>
      api.post<{ checkout_url: string }>(
        '/v1/checkout',
        { product_id: product.id, price: product.price, user_id: me.id },
        { headers: { 'idempotency-key': idempotencyKey() } },
      ),
    );
    if (session) setCheckout(session.checkout_url);
  };

  return (
    <div className="catalog-actions">
      <div className="row" role="group" aria-label={`About ${track.artist}`}>
        <Link className="button" to={paths.track(track.id)}>
          Track page
        </Link>
        <Link className="button" to={paths.artist(track.artist_slug)}>
          Artist: {track.artist}
        </Link>
        <button type="button" onClick={() => void toggleFollow()} aria-pressed={following === true} disabled={busy}>
          {following ? 'Following' : 'Follow'}
        </button>
        <button type="button" onClick={() => void save()} disabled={busy || saved}>
          {saved ? 'Saved to library' : 'Save to library'}
        </button>
        {product && !checkout && (
          <button type="button" onClick={() => void buy()} disabled={busy}>
            Buy “{product.title}” · {product.price.toFixed(2)} {product.currency.toUpperCase()}
          </button>
        )}
        {checkout && (
          <a className="button" href={checkout} target="_blank" rel="noopener noreferrer">
            Pay at checkout (opens a new tab)
          </a>
        )}
      </div>
      <Alert>{error}</Alert>
    </div>
  );
}
