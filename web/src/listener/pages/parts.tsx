/** Pieces the catalog pages share: track rows, the verified badge, save-to-library, add-to-playlist. */
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { errorText } from '../../shared/api';
import { Alert, clock, useAction } from '../../shared/ui';
import type { LibraryItem, PlaylistSummary } from '../api-types';
import { PlayButton } from '../playback';
import { Link, paths } from '../router';
import { api, session } from '../session';

/** Shown wherever an artist appears whom an admin verified (the `artist.verified` event). */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  if (!verified) return null;
  return (
    <span className="badge badge-verified" title="An admin verified this artist">
      ✓ Verified<span className="visually-hidden"> artist</span>
    </span>
  );
}

export interface TrackRowData {
  id: string;
  title: string;
  artist: string;
  artist_slug: string;
  artist_verified?: boolean;
  duration: number;
  track_number?: number | null;
}

/** A list of tracks, each with play, its page, its artist's page and its length; `extra` adds per-row controls. */
export function TrackRows({
  tracks,
  label,
  numbered,
  extra,
}: {
  tracks: TrackRowData[];
  label: string;
  numbered?: boolean;
  extra?: (track: TrackRowData) => ReactNode;
}) {
  if (tracks.length === 0) return <p className="muted">No tracks.</p>;
  const List = numbered ? 'ol' : 'ul';
  return (
    <List className="rows" aria-label={label}>
      {tracks.map((track) => (
        <li key={track.id} className="row-item">
          <PlayButton track={track} />
          <span className="row-main">
            <Link to={paths.track(track.id)}>{track.title}</Link>
            <span className="muted">
              {' '}
              · <Link to={paths.artist(track.artist_slug)}>{track.artist}</Link>
            </span>{' '}
            {track.artist_verified && <VerifiedBadge verified />}
          </span>
          <span className="muted row-time">{clock(track.duration)}</span>
          {extra && <span className="row-extra">{extra(track)}</span>}
        </li>
      ))}
    </List>
  );
}

// The caller's saved track ids, loaded once and kept in step by the save buttons.
let saved: Set<string> | null = null;
let loading: Promise<void> | null = null;
const savedListeners = new Set<() => void>();
function setSaved(next: Set<string>) {
  saved = next;
  for (const listener of savedListeners) listener();
}
session.subscribe(() => {
  if (!session.user()) {
    saved = null;
    loading = null;
  }
});

function loadSaved(): Promise<void> {
  loading ??= (async () => {
    const ids = new Set<string>();
    for (let page = 1; page <= 10; page++) {
      const answer = await api.get<{ data: LibraryItem[]; total: number }>(`/v1/users/me/library?limit=100&page=${page}`);
      for (const item of answer.data) ids.add(item.type === 'track' ? item.track.id : item.album.id);
      if (page * 100 >= answer.total) break;
    }
    setSaved(ids);
  })().catch(() => {
    loading = null;
  });
  return loading;
}

export function useSaved(): Set<string> | null {
  useEffect(() => void loadSaved(), []);
  return useSyncExternalStore(
    (listener) => {
      savedListeners.add(listener);
      return () => savedListeners.delete(listener);
    },
    () => saved,
  );
}

export async function saveTrack(id: string, keep: boolean): Promise<void> {
  if (keep) await api.post(`/v1/users/me/library/${encodeURIComponent(id)}`);
  else await api.delete(`/v1/users/me/library/${encodeURIComponent(id)}`);
  const next = new Set(saved ?? []);
  if (keep) next.add(id);
  else next.delete(id);
  setSaved(next);
}

/** Saves every track of a release at once (the library keeps tracks; a release is saved as its tracks). */
export function SaveAllButton({ title, tracks }: { title: string; tracks: Array<{ id: string }> }) {
  const ids = useSaved();
  const { busy, error, run } = useAction();
  const all = ids !== null && tracks.length > 0 && tracks.every((t) => ids.has(t.id));
  const save = () =>
    run(async () => {
      for (const t of tracks) if (!ids?.has(t.id)) await saveTrack(t.id, true);
    });
  return (
    <>
      <button type="button" aria-pressed={all} disabled={busy || ids === null || all} onClick={() => void save()}>
        {all ? 'All tracks saved' : 'Save all tracks'}
        <span className="visually-hidden"> of {title} to your library</span>
      </button>
      {error && <Alert>{error}</Alert>}
    </>
  );
}

export function SaveButton({ track }: { track: { id: string; title: string } }) {
  const ids = useSaved();
  const { busy, error, run } = useAction();
  const on = ids?.has(track.id) ?? false;
  return (
    <>
      <button type="button" aria-pressed={on} disabled={busy || ids === null} onClick={() => void run(() => saveTrack(track.id, !on))}>
        {on ? 'Saved' : 'Save'}
        <span className="visually-hidden"> {track.title} to your library</span>
      </button>
      {error && <Alert>{error}</Alert>}
    </>
  );
}

/** The caller's own playlists (GET /v1/listeners/{id}/playlists lists private ones only to their owner). */
export async function myPlaylists(): Promise<PlaylistSummary[]> {
  const me = session.user();
  if (!me) return [];
  const answer = await api.get<{ data: PlaylistSummary[] }>(`/v1/listeners/${encodeURIComponent(me.id)}/playlists?limit=100`);
  return answer.data;
}

export function AddToPlaylist({ track }: { track: { id: string; title: string } }) {
  const [lists, setLists] = useState<PlaylistSummary[] | null>(null);
  const [choice, setChoice] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, run, setError } = useAction();
  useEffect(() => {
    myPlaylists().then(
      (data) => {
        setLists(data);
        setChoice((c) => c || data[0]?.id || '');
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [setError]);
  const add = async () => {
    const list = lists?.find((l) => l.id === choice);
    if (!list) return;
    setDone(null);
    if ((await run(() => api.post(`/v1/playlists/${encodeURIComponent(list.id)}/tracks`, { track_id: track.id }))) !== null)
      setDone(`Added to “${list.name}”.`);
  };
  if (lists && lists.length === 0)
    return (
      <div className="add-to-playlist">
        <p className="muted">
          <Link to="/playlists">Make a playlist</Link> to add this track to it.
        </p>
      </div>
    );
  return (
    <div className="add-to-playlist">
      <div className="row">
        <label htmlFor={`add-${track.id}`}>Add to playlist</label>
        <select id={`add-${track.id}`} value={choice} onChange={(e) => setChoice(e.target.value)} disabled={!lists}>
          {(lists ?? []).map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void add()} disabled={busy || !choice}>
          Add
        </button>
      </div>
      <Alert>{error}</Alert>
      <Alert tone="ok">{done}</Alert>
    </div>
  );
}
