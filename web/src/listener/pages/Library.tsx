/**
 * The library: the tracks and releases the listener saved, most recent first (GET /v1/users/me/library), each
 * playable or openable and removable, and the releases they bought (GET /v1/store/orders).
 */
import { useState } from 'react';
import { query } from '../../shared/api';
import { useLoad } from '../../shared/ui';
import type { LibraryItem } from '../api-types';
import { Link, paths } from '../router';
import { api } from '../session';
import { loadPurchases, type Purchase } from './buying';
import { Loading, Page } from './Page';
import { SaveButton, TrackRows, useSaved } from './parts';

const LIMIT = 50;

export default function Library() {
  const [page, setPage] = useState(1);
  const library = useLoad(() => api.get<{ data: LibraryItem[]; total: number }>(`/v1/users/me/library${query({ page, limit: LIMIT })}`), [page]);
  const bought = useLoad(loadPurchases, []);
  return (
    <Page title="Library" heading="Your library">
      {/* Both lists at once, so the one that answers last does not push the other about. */}
      {!library.data || !bought.data ? (
        <Loading error={library.error ?? bought.error} />
      ) : (
        <div className="stack">
          <SavedTracks items={library.data.data} total={library.data.total} page={page} setPage={setPage} />
          <SavedReleases items={library.data.data} />
          <OwnedReleases purchases={bought.data} />
        </div>
      )}
    </Page>
  );
}

type SavedTrack = Extract<LibraryItem, { type: 'track' }>;
type SavedRelease = Extract<LibraryItem, { type: 'album' }>;

function SavedReleases({ items }: { items: LibraryItem[] }) {
  const releases = items.filter((i): i is SavedRelease => i.type === 'album');
  if (releases.length === 0) return null;
  return (
    <section aria-labelledby="saved-releases">
      <h3 id="saved-releases">Saved releases</h3>
      <ul className="cards">
        {releases.map(({ album }) => (
          <li key={album.id} className="card">
            <h4>
              <Link to={paths.album(album.id)}>{album.title}</Link>
            </h4>
            <p className="muted">
              {album.artist} · {album.type}
              {album.release_year ? ` · ${album.release_year}` : ''}
            </p>
            <SaveButton track={{ id: album.id, title: album.title }} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function SavedTracks({ items: all, total, page, setPage }: { items: LibraryItem[]; total: number; page: number; setPage: (page: number) => void }) {
  const saved = useSaved();
  const items = all.filter((i): i is SavedTrack => i.type === 'track');
  return (
    <section aria-labelledby="saved-tracks">
      <h3 id="saved-tracks">Saved tracks</h3>
      {items.length === 0 ? (
        <p className="muted">
          Nothing saved yet: <Link to="/browse">browse the catalog</Link> and press Save on a track.
        </p>
      ) : (
        <>
          <p className="muted">
            {total} saved {total === 1 ? 'item' : 'items'}
            {/* Unsaving here keeps the row (with a Save button to undo) until the page is left. */}
            {saved && items.some((i) => !saved.has(i.track.id)) ? ' (removed ones stay listed until you leave the page)' : ''}
          </p>
          <TrackRows
            tracks={items.map((i) => ({ ...i.track, title: i.track.status === 'removed' ? `${i.track.title} (taken down)` : i.track.title }))}
            label="Saved tracks"
            extra={(t) => <SaveButton track={t} />}
          />
          <div className="row">
            {page > 1 && (
              <button type="button" onClick={() => setPage(page - 1)}>
                Previous page
              </button>
            )}
            {page * LIMIT < total && (
              <button type="button" onClick={() => setPage(page + 1)}>
                Next page
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function OwnedReleases({ purchases }: { purchases: Purchase[] }) {
  return (
    <section aria-labelledby="owned-releases">
      <h3 id="owned-releases">Releases you bought</h3>
      {purchases.length === 0 ? (
        <p className="muted">
          None yet: releases are on sale in the <Link to="/store">store</Link>.
        </p>
      ) : (
        <ul className="cards">
          {purchases.map(({ order, product }) => (
            <li key={order.id} className="card">
              <h4>{product?.album_id ? <Link to={paths.album(product.album_id)}>{product.title}</Link> : (product?.title ?? 'A release')}</h4>
              <p className="muted">
                {product ? `${product.artist} · ${product.tracks.length} ${product.tracks.length === 1 ? 'track' : 'tracks'} · ` : ''}
                <Link to="/store">downloads in the store</Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
