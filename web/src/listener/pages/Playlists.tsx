/** The listener's playlists (GET /v1/listeners/{id}/playlists) and a form to make one (POST /v1/playlists). */
import { useState, type FormEvent } from 'react';
import { Alert, Field, useAction, useLoad } from '../../shared/ui';
import type { Playlist } from '../api-types';
import { Link, navigate, paths } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';
import { myPlaylists } from './parts';

export default function Playlists() {
  const lists = useLoad(myPlaylists, []);
  return (
    <Page title="Playlists" heading="Your playlists">
      <div className="stack">
        <CreatePlaylist />
        {!lists.data ? (
          <Loading error={lists.error} />
        ) : lists.data.length === 0 ? (
          <p className="muted">No playlists yet.</p>
        ) : (
          <ul className="cards">
            {lists.data.map((list) => (
              <li key={list.id} className="card">
                <h3>
                  <Link to={paths.playlist(list.id)}>{list.name}</Link>
                </h3>
                <p className="muted">
                  {list.public ? 'Public' : 'Private'} · {list.track_count} {list.track_count === 1 ? 'track' : 'tracks'}
                </p>
                {list.description && <p>{list.description}</p>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Page>
  );
}

function CreatePlaylist() {
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const made = await run(() => api.post<Playlist>('/v1/playlists', { name: name.trim(), public: isPublic }));
    if (made) navigate(paths.playlist(made.id));
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-playlist">
      <h3 id="new-playlist">New playlist</h3>
      <Field label="Name">{(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <label className="check">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} /> Public (others may see it)
      </label>
      <Alert>{error}</Alert>
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        Create playlist
      </button>
    </form>
  );
}
