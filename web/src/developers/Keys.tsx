/**
 * API keys: create (POST /v1/developer/keys; the key shown once, with a copy button), list (GET) and revoke
 * (DELETE /v1/developer/keys/{id}). A key holds only scopes the account holds now, so those are the choices.
 */
import { useState, type FormEvent } from 'react';
import { query, type Page } from '../shared/api';
import { ShownOnce } from '../shared/AreaShell';
import { ScopePicker } from './ScopePicker';
import { api } from '../shared/platform-session';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import type { ApiKey, CreatedKey, KeyInput, Me } from './types';

type Scope = KeyInput['scopes'][number];
const TOTP_ONLY = (scope: string) => (scope.startsWith('station:') && scope !== 'station:read') || scope === 'platform:admin';

export function KeysSection({ me }: { me: Me }) {
  const keys = useLoad(() => api.get<Page<ApiKey>>(`/v1/developer/keys${query({ limit: 100 })}`), []);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <div className="stack">
      {created ? (
        <ShownOnce label={`Your new ${created.environment} key “${created.name}”`} value={created.key} onDone={() => setCreated(null)} />
      ) : (
        <NewKey
          me={me}
          onCreated={(key) => {
            setCreated(key);
            keys.reload();
          }}
        />
      )}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        <Alert>{keys.error}</Alert>
        {keys.data && keys.data.data.length === 0 && <p className="muted">No key yet.</p>}
        {keys.data && keys.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">API keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((key) => (
                  <KeyRow key={key.id} apiKey={key} onRevoked={keys.reload} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <span className="tag">{apiKey.environment === 'test' ? 'test (sandbox)' : 'live'}</span>
      </td>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>{apiKey.scopes.join(', ')}</td>
      <td>{apiKey.last_used_at ? when(apiKey.last_used_at) : 'never'}</td>
      <td>
        {confirming ? (
          <div className="actions">
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => void run(() => api.delete(`/v1/developer/keys/${apiKey.id}`)).then((r) => r !== null && onRevoked())}
            >
              Revoke now <span className="visually-hidden">{apiKey.name}</span>
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </div>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Revoke <span className="visually-hidden">{apiKey.name}</span>
          </button>
        )}
        <Alert>{error}</Alert>
      </td>
    </tr>
  );
}

function NewKey({ me, onCreated }: { me: Me; onCreated: (key: CreatedKey) => void }) {
  const held = me.credential.scopes.filter((s) => !TOTP_ONLY(s)) as Scope[];
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [scopes, setScopes] = useState<Scope[]>(held.includes('tracks:read') ? ['tracks:read'] : []);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = await run(() => api.post<CreatedKey>('/v1/developer/keys', { name, environment, scopes } satisfies KeyInput));
    if (key) {
      setName('');
      onCreated(key);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Create an API key">
      <h2>Create an API key</h2>
      <Field label="Key name" hint="What it is for, e.g. “staging server”">
        {(id, describedBy) => <input id={id} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} aria-describedby={describedBy} />}
      </Field>
      <fieldset>
        <legend>Environment</legend>
        <label className="check">
          <input type="radio" name="environment" checked={environment === 'test'} onChange={() => setEnvironment('test')} /> Test: the sandbox (100,000 requests
          a month)
        </label>
        <label className="check">
          <input type="radio" name="environment" checked={environment === 'live'} onChange={() => setEnvironment('live')} /> Live: production (1,000,000
          requests a month)
        </label>
      </fieldset>
      <ScopePicker held={held} scopes={scopes} setScopes={setScopes} />
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy || scopes.length === 0}>
        Create key
      </button>
    </form>
  );
}
