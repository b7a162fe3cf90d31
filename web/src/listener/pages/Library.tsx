/**
 * The library: the tracks the listener saved, most recent first (GET /v1/users/me/library), each playable and
 * removable. The platform saves tracks only; releases are reached through their tracks and the store.
 */
import { useState } from 'react';
import { query } from '../../shared/api';
import { useLoad, when } from '../../shared/ui';
import type { LibraryItem } from '../api-types';
import { Link } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';
import { SaveButton, TrackRows, useSaved } from './parts';

const LIMIT = 50;

export default function Library() {
  const [page, setPage] = useState(1);
  const saved = useSaved();
  const library = useLoad(() => api.get<{ data: LibraryItem[]; total: number }>(`/v1/users/me/library${query({ page, limit: LIMIT })}`), [page]);
  // Unsaving here keeps the row (with a Save button to undo) until the page is left.
  const items = library.data?.data ?? [];
  return (
    <Page title="Library" heading="Your library">
      {!library.data ? (
        <Loading error={library.error} />
      ) : items.length === 0 ? (
        <p className="muted">
          Nothing saved yet: <Link to="/browse">browse the catalog</Link> and press Save on a track.
        </p>
      ) : (
        <>
          <p className="muted">
            {library.data.total} saved {library.data.total === 1 ? 'track' : 'tracks'}
            {saved && items.some((i) => !saved.has(i.track.id)) ? ' (removed ones stay listed until you leave the page)' : ''}
          </p>
          <TrackRows
            tracks={items.map((i) => ({ ...i.track, title: i.track.status === 'removed' ? `${i.track.title} (taken down)` : i.track.title }))}
            label="Saved tracks"
            extra={(t) => (
              <>
                <SaveButton track={t} />
                <span className="muted visually-hidden">saved {when(items.find((i) => i.track.id === t.id)?.saved_at)}</span>
              </>
            )}
          />
          <div className="row">
            {page > 1 && (
              <button type="button" onClick={() => setPage((p) => p - 1)}>
                Previous page
              </button>
            )}
            {page * LIMIT < library.data.total && (
              <button type="button" onClick={() => setPage((p) => p + 1)}>
                Next page
              </button>
            )}
          </div>
        </>
      )}
    </Page>
  );
}
