/** What the listener played, newest first (GET /v1/listeners/{id}/history): on-demand streams and radio plays. */
import { useState } from 'react';
import { query } from '../../shared/api';
import { clock, useLoad, when } from '../../shared/ui';
import type { HistoryEntry } from '../api-types';
import { PlayButton } from '../playback';
import { Link, paths } from '../router';
import { api, session } from '../session';
import { Loading, Page } from './Page';

const LIMIT = 50;

export default function ListeningHistory() {
  const [page, setPage] = useState(1);
  const me = session.user();
  const history = useLoad(
    () => api.get<{ data: HistoryEntry[]; total: number }>(`/v1/listeners/${encodeURIComponent(me?.id ?? '')}/history${query({ page, limit: LIMIT })}`),
    [page, me?.id],
  );
  const entries = history.data?.data ?? [];
  return (
    <Page title="History" heading="Listening history">
      {!history.data ? (
        <Loading error={history.error} />
      ) : entries.length === 0 ? (
        <p className="muted">Nothing played yet. Plays from the radio and from track pages show here.</p>
      ) : (
        <>
          <ol className="rows" aria-label="Plays, newest first">
            {entries.map((entry, i) => (
              <li key={`${entry.played_at}-${i}`} className="row-item">
                <PlayButton track={entry.track} />
                <span className="row-main">
                  <Link to={paths.track(entry.track.id)}>{entry.track.title}</Link>
                  <span className="muted">
                    {' '}
                    · <Link to={paths.artist(entry.track.artist_slug)}>{entry.track.artist}</Link>
                  </span>
                </span>
                <span className="muted row-time">
                  {entry.source === 'radio' ? 'radio' : 'on demand'} · <time dateTime={entry.played_at}>{when(entry.played_at)}</time>
                  {entry.seconds_played !== null ? ` · ${clock(entry.seconds_played)}` : ''}
                </span>
              </li>
            ))}
          </ol>
          <div className="row">
            {page > 1 && (
              <button type="button" onClick={() => setPage((p) => p - 1)}>
                Newer
              </button>
            )}
            {page * LIMIT < history.data.total && (
              <button type="button" onClick={() => setPage((p) => p + 1)}>
                Older
              </button>
            )}
          </div>
        </>
      )}
    </Page>
  );
}
