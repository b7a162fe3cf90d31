/**
 * OAuth apps: register one (POST /v1/developer/apps: redirect URIs, scopes, confidential or public; the client id
 * and, for a confidential app, the client secret shown once), list and delete them.
 */
import { useState, type FormEvent } from 'react';
import { query, type Page } from '../shared/api';
import { ShownOnce } from '../shared/AreaShell';
import { ScopePicker } from './ScopePicker';
import { api } from '../shared/platform-session';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import type { AppInput, CreatedApp, Me, OAuthApp } from './types';

type Scope = AppInput['scopes'][number];
const GRANTABLE = (scope: string) => !scope.startsWith('station:') || scope === 'station:read';

export function AppsSection({ me }: { me: Me }) {
  const apps = useLoad(() => api.get<Page<OAuthApp>>(`/v1/developer/apps${query({ limit: 100 })}`), []);
  const [created, setCreated] = useState<CreatedApp | null>(null);
  return (
    <div className="stack">
      {created ? (
        <div className="stack">
          <ShownOnce label={`Client id of “${created.name}”`} value={created.client_id} />
          {created.client_secret && <ShownOnce label={`Client secret of “${created.name}”`} value={created.client_secret} />}
          <div>
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <NewApp
          me={me}
          onCreated={(app) => {
            setCreated(app);
            apps.reload();
          }}
        />
      )}
      <section aria-labelledby="apps-title">
        <h2 id="apps-title">Your apps</h2>
        <Alert>{apps.error}</Alert>
        {apps.data && apps.data.data.length === 0 && <p className="muted">No app yet.</p>}
        <ul className="plain-list">
          {apps.data?.data.map((app) => (
            <li key={app.id}>
              <AppRow app={app} onDeleted={apps.reload} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function AppRow({ app, onDeleted }: { app: OAuthApp; onDeleted: () => void }) {
  const { busy, error, run } = useAction();
  return (
    <article className="track-row" aria-label={`App ${app.name}`}>
      <h3>{app.name}</h3>
      <dl className="facts">
        <dt>Client id</dt>
        <dd>
          <code>{app.client_id}</code>
        </dd>
        <dt>Type</dt>
        <dd>{app.type}</dd>
        <dt>Redirect URIs</dt>
        <dd>{app.redirect_uris.join(', ')}</dd>
        <dt>Scopes</dt>
        <dd>{app.scopes.join(', ')}</dd>
        <dt>Created</dt>
        <dd>{when(app.created_at)}</dd>
      </dl>
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => void run(() => api.delete(`/v1/developer/apps/${app.id}`)).then((r) => r !== null && onDeleted())}
        >
          Delete <span className="visually-hidden">{app.name}</span>
        </button>
      </div>
      <Alert>{error}</Alert>
    </article>
  );
}

function NewApp({ me, onCreated }: { me: Me; onCreated: (app: CreatedApp) => void }) {
  const held = me.credential.scopes.filter((s) => GRANTABLE(s) && s !== 'platform:admin') as Scope[];
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [type, setType] = useState<'confidential' | 'public'>('confidential');
  const [scopes, setScopes] = useState<Scope[]>(held.includes('users:read') ? ['users:read'] : []);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const redirect_uris = uris
      .split(/\s+/)
      .map((u) => u.trim())
      .filter(Boolean);
    const app = await run(() => api.post<CreatedApp>('/v1/developer/apps', { name, redirect_uris, scopes, type } satisfies AppInput));
    if (app) {
      setName('');
      setUris('');
      onCreated(app);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Register an OAuth app">
      <h2>Register an OAuth app</h2>
      <p className="muted">Authorization code with PKCE (S256). Your app may ask a user for at most the scopes you choose here.</p>
      <Field label="App name">{(id) => <input id={id} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <Field label="Redirect URIs" hint="One per line; https, or http on localhost only; matched exactly">
        {(id, describedBy) => <textarea id={id} required value={uris} onChange={(e) => setUris(e.target.value)} aria-describedby={describedBy} />}
      </Field>
      <fieldset>
        <legend>Type</legend>
        <label className="check">
          <input type="radio" name="app-type" checked={type === 'confidential'} onChange={() => setType('confidential')} /> Confidential: a server that keeps a
          client secret
        </label>
        <label className="check">
          <input type="radio" name="app-type" checked={type === 'public'} onChange={() => setType('public')} /> Public: a browser or mobile app (PKCE only, no
          secret)
        </label>
      </fieldset>
      <ScopePicker held={held} scopes={scopes} setScopes={setScopes} />
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy || scopes.length === 0}>
        Register app
      </button>
    </form>
  );
}
