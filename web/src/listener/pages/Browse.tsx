/**
 * Catalog search and browse: one search box over tracks, artists and releases (GET /v1/tracks?q=,
 * /v1/artists?search=, /v1/albums?search=), a genre filter, and a view per kind. The query, genre and view
 * live in the address (/browse?q=...&genre=...&view=artists), so a search can be shared and Back returns to it.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { query } from '../../shared/api';
import { Field, clock, useLoad } from '../../shared/ui';
import type { AlbumSummary, ArtistSummary, TrackSummary } from '../api-types';
import { Link, navigate, paths, useLocation } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';
import { SaveButton, TrackRows, VerifiedBadge } from './parts';

const VIEWS = [
  ['tracks', 'Tracks'],
  ['artists', 'Artists'],
  ['albums', 'Albums'],
] as const;
type View = (typeof VIEWS)[number][0];

const PAGE_SIZE = 20;

interface Listing<T> {
  data: T[];
  total: number;
}

export default function Browse() {
  const { search } = useLocation();
  const q = search.get('q') ?? '';
  const genre = search.get('genre') ?? '';
  const view: View = VIEWS.some(([v]) => v === search.get('view')) ? (search.get('view') as View) : 'tracks';
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);

  const go = (change: Partial<{ q: string; genre: string; view: View }>) => {
    const next = { q, genre, view, ...change };
    navigate(`/browse${query({ q: next.q.trim(), genre: next.genre, view: next.view === 'tracks' ? '' : next.view })}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ q: text });
  };

  const genres = useLoad(async () => {
    const artists = await api.get<Listing<ArtistSummary>>('/v1/artists?limit=100');
    return [...new Set(artists.data.map((a) => a.genre))].sort((a, b) => a.localeCompare(b));
  }, []);

  return (
    <Page title={q ? `Search: ${q}` : 'Browse'} heading="Browse the catalog">
      <form className="browse-form" role="search" aria-label="Catalog" onSubmit={submit}>
        <Field label="Search tracks, artists and albums">
          {(id) => <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={200} placeholder="e.g. neon" />}
        </Field>
        <Field label="Genre">
          {(id) => (
            <select id={id} value={genre} onChange={(e) => go({ genre: e.target.value })}>
              <option value="">All genres</option>
              {(genres.data ?? (genre ? [genre] : [])).map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      <div className="row tabs" role="group" aria-label="Show">
        {VIEWS.map(([value, label]) => (
          <button key={value} type="button" aria-pressed={view === value} onClick={() => go({ view: value })}>
            {label}
          </button>
        ))}
      </div>
      {view === 'tracks' && (
        <Results
          key={`t|${q}|${genre}`}
          path="/v1/tracks"
          params={{ q, genre }}
          render={(tracks: TrackSummary[]) => <TrackRows tracks={tracks} label="Tracks" extra={(t) => <SaveButton track={t} />} />}
        />
      )}
      {view === 'artists' && (
        <Results
          key={`a|${q}|${genre}`}
          path="/v1/artists"
          params={{ search: q, genre }}
          render={(artists: ArtistSummary[]) => <ArtistCards artists={artists} />}
        />
      )}
      {view === 'albums' && (
        <Results key={`l|${q}|${genre}`} path="/v1/albums" params={{ search: q, genre }} render={(albums: AlbumSummary[]) => <AlbumCards albums={albums} />} />
      )}
    </Page>
  );
}

/** One kind of result, page by page ("Show more" appends the next page). */
function Results<T>({ path, params, render }: { path: string; params: Record<string, string>; render: (items: T[]) => ReactNode }) {
  const [pages, setPages] = useState(1);
  // Each page's items under its number: a page that answers late lands in its place, never twice.
  const [byPage, setByPage] = useState<Record<number, T[]>>({});
  const listing = useLoad(
    async () => ({ page: pages, ...(await api.get<Listing<T>>(`${path}${query({ ...params, page: pages, limit: PAGE_SIZE })}`)) }),
    [pages],
  );
  useEffect(() => {
    const answer = listing.data;
    if (answer) setByPage((before) => ({ ...before, [answer.page]: answer.data }));
  }, [listing.data]);
  if (!byPage[1]) return <Loading error={listing.error} />;
  const items = Array.from({ length: pages }, (_, i) => byPage[i + 1] ?? []).flat();
  const total = listing.data?.total ?? items.length;
  return (
    <section aria-label="Results" className="results">
      <p className="muted" role="status">
        {total === 0 ? 'Nothing found.' : `${total} found`}
      </p>
      {render(items)}
      {items.length < total && (
        <button type="button" onClick={() => setPages((p) => p + 1)} disabled={listing.loading}>
          Show more
        </button>
      )}
    </section>
  );
}

export function ArtistCards({ artists }: { artists: ArtistSummary[] }) {
  return (
    <ul className="cards">
      {artists.map((artist) => (
        <li key={artist.id} className="card">
          <h3>
            <Link to={paths.artist(artist.slug)}>{artist.name}</Link> <VerifiedBadge verified={artist.verified} />
          </h3>
          <p className="muted">
            {artist.genre} · {artist.followers} {artist.followers === 1 ? 'follower' : 'followers'}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function AlbumCards({ albums }: { albums: Array<Omit<AlbumSummary, 'artist_id'>> }) {
  return (
    <ul className="cards">
      {albums.map((album) => (
        <li key={album.id} className="card">
          <h3>
            <Link to={paths.album(album.id)}>{album.title}</Link>
          </h3>
          <p className="muted">
            {album.type.toUpperCase() === 'EP' ? 'EP' : album.type[0].toUpperCase() + album.type.slice(1)}
            {album.release_year ? ` · ${album.release_year}` : ''} · <Link to={paths.artist(album.artist_slug)}>{album.artist}</Link>{' '}
            <VerifiedBadge verified={album.artist_verified} />
          </p>
          <p className="muted">
            {album.track_count} {album.track_count === 1 ? 'track' : 'tracks'} · {clock(album.duration)}
          </p>
        </li>
      ))}
    </ul>
  );
}
