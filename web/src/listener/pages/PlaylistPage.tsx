/**
 * One playlist: rename it, describe it, make it public or private, delete it; play and remove its tracks, and
 * reorder them by drag and drop or from the keyboard (the Move up/Move down buttons, or Alt+Arrow Up/Down on a
 * row). A reorder shows at once and is saved with PUT /v1/playlists/{id}/tracks (the whole new order); if the
 * server refuses it (a concurrent edit), the page reloads the playlist and says so. Each move is announced.
 */
import { useEffect, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { errorText } from '../../shared/api';
import { Alert, Field, clock, useAction, useLoad } from '../../shared/ui';
import type { Playlist } from '../api-types';
import { PlayButton } from '../playback';
import { Link, navigate, paths } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';

type Entry = Playlist['tracks'][number];

export default function PlaylistPage({ id }: { id: string }) {
  const loaded = useLoad(() => api.get<Playlist>(`/v1/playlists/${encodeURIComponent(id)}`), [id]);
  const [playlist, setPlaylist] = useState<Playlist | null>(null);
  useEffect(() => setPlaylist(loaded.data), [loaded.data]);
  return (
    <Page title={playlist?.name ?? 'Playlist'}>
      {!playlist ? <Loading error={loaded.error} /> : <PlaylistBody playlist={playlist} onChange={setPlaylist} reload={loaded.reload} />}
    </Page>
  );
}

function PlaylistBody({ playlist, onChange, reload }: { playlist: Playlist; onChange: (p: Playlist) => void; reload: () => void }) {
  return (
    <div className="stack">
      <p className="muted">
        {playlist.public ? 'Public' : 'Private'} · {playlist.track_count} {playlist.track_count === 1 ? 'track' : 'tracks'}
        {playlist.description ? ` · ${playlist.description}` : ''}
      </p>
      <Tracks playlist={playlist} onChange={onChange} reload={reload} />
      <Details playlist={playlist} onChange={onChange} />
    </div>
  );
}

function Tracks({ playlist, onChange, reload }: { playlist: Playlist; onChange: (p: Playlist) => void; reload: () => void }) {
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const refocus = useRef<{ trackId: string; control: 'up' | 'down' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const { error, run, setError } = useAction();
  const entries = playlist.tracks;

  // After a move, focus goes back to the control that made it (or its twin, when it became disabled at an end).
  useEffect(() => {
    const target = refocus.current;
    if (!target) return;
    refocus.current = null;
    const row = list.current?.querySelector<HTMLElement>(`[data-track-id="${CSS.escape(target.trackId)}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`button[data-move="${target.control}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`button[data-move="${target.control === 'up' ? 'down' : 'up'}"]`);
    (wanted && !wanted.disabled ? wanted : (other ?? row))?.focus();
  }, [entries]);

  const move = async (from: number, to: number, control: 'up' | 'down' | null) => {
    if (to < 0 || to >= entries.length || from === to) return;
    const next = [...entries];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    const before = playlist;
    if (control) refocus.current = { trackId: moved.track.id, control };
    onChange({ ...playlist, tracks: next.map((e, position) => ({ ...e, position })) });
    setAnnouncement(`“${moved.track.title}” moved to position ${to + 1} of ${next.length}.`);
    const saved = await run(() => api.put(`/v1/playlists/${encodeURIComponent(playlist.id)}/tracks`, { track_ids: next.map((e) => e.track.id) }));
    if (saved === null) {
      onChange(before);
      setAnnouncement('The new order was not saved; the playlist is reloaded.');
      reload();
    }
  };

  const remove = async (entry: Entry) => {
    setError(null);
    try {
      await api.delete(`/v1/playlists/${encodeURIComponent(playlist.id)}/tracks/${encodeURIComponent(entry.track.id)}`);
      const rest = entries.filter((e) => e.track.id !== entry.track.id).map((e, position) => ({ ...e, position }));
      onChange({ ...playlist, tracks: rest, track_count: rest.length });
      setAnnouncement(`“${entry.track.title}” removed from the playlist.`);
      list.current?.closest('section')?.querySelector<HTMLElement>('h3')?.focus();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const onKey = (event: KeyboardEvent<HTMLLIElement>, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    const up = event.key === 'ArrowUp';
    void move(index, index + (up ? -1 : 1), up ? 'up' : 'down');
  };
  const onDragStart = (event: DragEvent<HTMLLIElement>, index: number) => {
    setDragging(index);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', entries[index].track.id);
  };
  const onDragOver = (event: DragEvent<HTMLLIElement>, index: number) => {
    if (dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(index);
  };
  const onDrop = (event: DragEvent<HTMLLIElement>, index: number) => {
    event.preventDefault();
    if (dragging !== null) void move(dragging, index, null);
    setDragging(null);
    setOver(null);
  };

  return (
    <section className="card" aria-labelledby="playlist-tracks">
      <h3 id="playlist-tracks" tabIndex={-1}>
        Tracks
      </h3>
      <p className="muted" id="reorder-help">
        Drag a track to move it, or use Move up and Move down (Alt+Arrow Up and Alt+Arrow Down on a track).
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <Alert>{error}</Alert>
      {entries.length === 0 ? (
        <p className="muted">
          No tracks yet: open a track from the <Link to="/browse">catalog</Link> and add it to this playlist.
        </p>
      ) : (
        <ol ref={list} className="rows playlist-rows" aria-label={`${playlist.name}: tracks`} aria-describedby="reorder-help">
          {entries.map((entry, index) => (
            <li
              key={entry.track.id}
              data-track-id={entry.track.id}
              className={`row-item${dragging === index ? ' dragging' : ''}${over === index && dragging !== index ? ' drop-target' : ''}`}
              draggable
              onDragStart={(e) => onDragStart(e, index)}
              onDragOver={(e) => onDragOver(e, index)}
              onDrop={(e) => onDrop(e, index)}
              onDragEnd={() => (setDragging(null), setOver(null))}
              onKeyDown={(e) => onKey(e, index)}
            >
              <span className="drag-handle" aria-hidden="true">
                ⠿
              </span>
              <PlayButton track={entry.track} />
              <span className="row-main">
                <span className="muted">{index + 1}.</span> <Link to={paths.track(entry.track.id)}>{entry.track.title}</Link>
                <span className="muted"> · {entry.track.artist}</span>
              </span>
              <span className="muted row-time">{clock(entry.track.duration)}</span>
              <span className="row-extra">
                <button type="button" data-move="up" onClick={() => void move(index, index - 1, 'up')} disabled={index === 0} aria-keyshortcuts="Alt+ArrowUp">
                  ↑<span className="visually-hidden">Move up {entry.track.title}</span>
                </button>
                <button
                  type="button"
                  data-move="down"
                  onClick={() => void move(index, index + 1, 'down')}
                  disabled={index === entries.length - 1}
                  aria-keyshortcuts="Alt+ArrowDown"
                >
                  ↓<span className="visually-hidden">Move down {entry.track.title}</span>
                </button>
                <button type="button" onClick={() => void remove(entry)}>
                  Remove<span className="visually-hidden"> {entry.track.title}</span>
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Details({ playlist, onChange }: { playlist: Playlist; onChange: (p: Playlist) => void }) {
  const [name, setName] = useState(playlist.name);
  const [description, setDescription] = useState(playlist.description);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const patch = async (change: Partial<Pick<Playlist, 'name' | 'description' | 'public'>>, done: string) => {
    setSaved(null);
    const next = await run(() => api.patch<Playlist>(`/v1/playlists/${encodeURIComponent(playlist.id)}`, change));
    if (next) {
      onChange(next);
      setSaved(done);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void patch({ name: name.trim(), description }, 'Saved.');
  };
  const remove = async () => {
    if (!window.confirm(`Delete the playlist “${playlist.name}”?`)) return;
    if ((await run(() => api.delete(`/v1/playlists/${encodeURIComponent(playlist.id)}`))) !== null) navigate('/playlists');
  };
  return (
    <section className="card" aria-labelledby="playlist-settings">
      <h3 id="playlist-settings">Name and visibility</h3>
      <form onSubmit={submit} aria-label="Rename playlist">
        <Field label="Playlist name">{(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Description">{(id) => <input id={id} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !name.trim()}>
            Save name
          </button>
          <button
            type="button"
            aria-pressed={playlist.public}
            onClick={() => void patch({ public: !playlist.public }, playlist.public ? 'Now private.' : 'Now public.')}
            disabled={busy}
          >
            Public
          </button>
          <button type="button" className="danger" onClick={() => void remove()} disabled={busy}>
            Delete playlist
          </button>
        </div>
      </form>
      <Alert>{error}</Alert>
      <Alert tone="ok">{saved}</Alert>
    </section>
  );
}
