/**
 * Releases and prices: the artist's releases (GET /v1/albums?artist=) and what is on sale (GET /v1/store/products
 * ?artist=), a new product from a release or from chosen tracks (POST /v1/store/products), a price change or
 * taking a product off sale (PATCH /v1/store/products/{id}).
 */
import { useState, type FormEvent } from 'react';
import { query, type Page } from '../shared/api';
import { api } from '../shared/platform-session';
import { Alert, Field, clock, useAction, useLoad } from '../shared/ui';
import { publishedTracks } from './Tracks';
import type { Artist, Product, ProductInput, Release } from './types';

const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud'] as const;
type Currency = (typeof CURRENCIES)[number];

export function money(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

export function ReleasesSection({ artist }: { artist: Artist }) {
  const releases = useLoad(() => api.get<Page<Release>>(`/v1/albums${query({ artist: artist.slug, limit: 100 })}`), [artist.slug]);
  const products = useLoad(() => api.get<Page<Product>>(`/v1/store/products${query({ artist: artist.slug, limit: 100 })}`), [artist.slug]);
  return (
    <div className="stack">
      <NewProduct artist={artist} releases={releases.data?.data ?? []} onCreated={products.reload} />
      <section aria-labelledby="on-sale-title">
        <h2 id="on-sale-title">On sale</h2>
        <Alert>{products.error}</Alert>
        {products.data && products.data.data.length === 0 && <p className="muted">Nothing on sale yet.</p>}
        <ul className="plain-list">
          {products.data?.data.map((product) => (
            <li key={product.id}>
              <ProductRow product={product} onChanged={products.reload} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="releases-title">
        <h2 id="releases-title">Releases</h2>
        <Alert>{releases.error}</Alert>
        {releases.data && releases.data.data.length === 0 && (
          <p className="muted">No release yet. A product made from chosen tracks sells them as a release of its own.</p>
        )}
        <ul className="plain-list">
          {releases.data?.data.map((release) => (
            <li key={release.id}>
              <strong>{release.title}</strong> <span className="tag">{release.type}</span>
              <span className="muted">
                {' '}
                {release.track_count} tracks · {clock(release.duration)}
                {release.release_year ? ` · ${release.release_year}` : ''}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function NewProduct({ artist, releases, onCreated }: { artist: Artist; releases: Release[]; onCreated: () => void }) {
  const tracks = publishedTracks(artist);
  const [source, setSource] = useState<string>('tracks');
  const [title, setTitle] = useState('');
  const [type, setType] = useState<'album' | 'ep' | 'single'>('single');
  const [chosen, setChosen] = useState<string[]>([]);
  const [price, setPrice] = useState('');
  const [currency, setCurrency] = useState<Currency>('usd');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const fromRelease = source !== 'tracks';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    const body: ProductInput = fromRelease
      ? { album_id: source, price: Number(price), currency }
      : { title, type, track_ids: chosen, price: Number(price), currency };
    const product = await run(() => api.post<Product>('/v1/store/products', body));
    if (product) {
      setCreated(`“${product.title}” is on sale at ${money(product.price_cents, product.currency)}.`);
      setTitle('');
      setChosen([]);
      setPrice('');
      onCreated();
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Put a release on sale">
      <h2>Put a release on sale</h2>
      <p className="muted">You keep 85% of every sale; the platform keeps 15%.</p>
      <Field label="What to sell">
        {(id) => (
          <select id={id} value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="tracks">Tracks I choose</option>
            {releases.map((release) => (
              <option key={release.id} value={release.id}>
                Release: {release.title} ({release.type})
              </option>
            ))}
          </select>
        )}
      </Field>
      {!fromRelease && (
        <>
          <div className="form-grid">
            <Field label="Release title">{(id) => <input id={id} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}</Field>
            <Field label="Type">
              {(id) => (
                <select id={id} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
                  <option value="single">Single</option>
                  <option value="ep">EP</option>
                  <option value="album">Album</option>
                </select>
              )}
            </Field>
          </div>
          <fieldset className="pick-tracks">
            <legend>Tracks</legend>
            {tracks.length === 0 && <p className="muted">Upload a track first: only published tracks can be sold.</p>}
            {tracks.map((t) => (
              <label key={t.id} className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(t.id)}
                  onChange={(e) => setChosen((list) => (e.target.checked ? [...list, t.id] : list.filter((x) => x !== t.id)))}
                />
                {t.title}
              </label>
            ))}
          </fieldset>
        </>
      )}
      <div className="form-grid">
        <Field label="Price" hint="e.g. 7.99">
          {(id, describedBy) => (
            <input
              id={id}
              required
              type="number"
              min="0.5"
              max="1000000"
              step="0.01"
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field label="Currency">
          {(id) => (
            <select id={id} value={currency} onChange={(e) => setCurrency(e.target.value as Currency)}>
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c.toUpperCase()}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Alert>{error}</Alert>
      <p className="status-line" role="status" aria-live="polite">
        {created}
      </p>
      <button className="primary" type="submit" disabled={busy || (!fromRelease && chosen.length === 0)}>
        Put on sale
      </button>
    </form>
  );
}

function ProductRow({ product, onChanged }: { product: Product; onChanged: () => void }) {
  const [price, setPrice] = useState((product.price_cents / 100).toFixed(2));
  const { busy, error, run } = useAction();
  const change = async (patch: { price?: number; status?: 'active' | 'archived' }) => {
    if ((await run(() => api.patch(`/v1/store/products/${product.id}`, patch))) !== null) onChanged();
  };
  return (
    <article className="track-row" aria-label={product.title}>
      <h3>
        {product.title} <span className="tag">{product.type}</span>{' '}
        <span className={`status-badge status-${product.status === 'active' ? 'published' : 'removed'}`}>
          {product.status === 'active' ? 'on sale' : 'off sale'}
        </span>
      </h3>
      <p className="muted">
        {money(product.price_cents, product.currency)} · {product.tracks.length} tracks: {product.tracks.map((t) => t.title).join(', ')}
      </p>
      <form
        className="row"
        aria-label={`Price of ${product.title}`}
        onSubmit={(event) => {
          event.preventDefault();
          void change({ price: Number(price) });
        }}
      >
        <Field label={`New price (${product.currency.toUpperCase()})`}>
          {(id) => (
            <input id={id} type="number" min="0.5" max="1000000" step="0.01" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Change price
        </button>
        <button type="button" disabled={busy} onClick={() => void change({ status: product.status === 'active' ? 'archived' : 'active' })}>
          {product.status === 'active' ? 'Take off sale' : 'Put back on sale'}
        </button>
      </form>
      <Alert>{error}</Alert>
    </article>
  );
}
