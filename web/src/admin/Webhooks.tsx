/** Webhooks: register an endpoint for events (its secret is shown once), list, deliveries, remove. */
import { useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api } from './session';

const EVENTS = [
  'station.radio.enabled',
  'station.radio.disabled',
  'station.track.now_playing',
  'station.track.generation_complete',
  'station.track.generation_failed',
  'station.training.job_completed',
  'station.training.job_failed',
  'station.safety.flag_raised',
];

interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
}
interface Delivery {
  id: string;
  event: string;
  attempt: number;
  status: string;
  response_status: number | null;
  error: string | null;
  attempted_at: string | null;
}

export function WebhooksSection() {
  const hooks = useLoad(() => api.get<Page<Webhook>>(`/v1/webhooks${query({ limit: 50 })}`), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['station.safety.flag_raised']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();
  const urlError = url && !/^https?:\/\/\S+$/.test(url) ? 'An absolute http(s) URL' : null;

  const register = async (event: FormEvent) => {
    event.preventDefault();
    if (!url || urlError || events.length === 0) return;
    const created = await action.run(() => api.post<{ id: string; secret: string }>('/v1/webhooks', { url, events }));
    if (created) {
      setSecret(created.secret);
      setUrl('');
      hooks.reload();
    }
  };
  const remove = async (hook: Webhook) => {
    if ((await action.run(() => api.delete(`/v1/webhooks/${encodeURIComponent(hook.id)}`))) !== null) hooks.reload();
  };
  return (
    <div className="stack">
      <section className="card" aria-labelledby="wh-new">
        <h2 id="wh-new">Register a webhook</h2>
        <form onSubmit={register} aria-label="Register a webhook" noValidate>
          <Field label="Endpoint URL" error={urlError} hint="Where signed POSTs are sent; the operator decides which hosts are allowed">
            {(id, d) => <input id={id} type="url" value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby={d} aria-invalid={!!urlError} />}
          </Field>
          <fieldset className="events">
            <legend>Events</legend>
            {EVENTS.map((name) => (
              <label key={name} className="check">
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(e) => setEvents(e.target.checked ? [...events, name] : events.filter((x) => x !== name))}
                />{' '}
                {name}
              </label>
            ))}
          </fieldset>
          <Alert>{action.error}</Alert>
          <button type="submit" className="primary" disabled={action.busy || !url || events.length === 0}>
            Register
          </button>
        </form>
        {secret && (
          <Alert tone="ok">
            Signing secret (shown only now, keep it): <code>{secret}</code>
          </Alert>
        )}
      </section>
      <section className="card" aria-labelledby="wh-list">
        <h2 id="wh-list">Registered</h2>
        <Alert>{hooks.error}</Alert>
        <ul className="plain-list">
          {(hooks.data?.data ?? []).map((h) => (
            <li key={h.id}>
              <strong>{h.url}</strong>{' '}
              <span className="muted">
                · {h.events.length} events · {when(h.created_at)}
              </span>
              <div className="row">
                <button type="button" onClick={() => setOpen(open === h.id ? null : h.id)} aria-expanded={open === h.id}>
                  Deliveries
                </button>
                <button type="button" className="danger" onClick={() => void remove(h)} disabled={action.busy}>
                  Remove<span className="visually-hidden"> {h.url}</span>
                </button>
              </div>
              {open === h.id && <Deliveries id={h.id} />}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function Deliveries({ id }: { id: string }) {
  const list = useLoad(() => api.get<Page<Delivery>>(`/v1/webhooks/${encodeURIComponent(id)}/deliveries${query({ limit: 20 })}`), [id]);
  if (list.error) return <Alert>{list.error}</Alert>;
  const rows = list.data?.data ?? [];
  if (rows.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <ul>
      {rows.map((d) => (
        <li key={d.id}>
          {d.event} · attempt {d.attempt} · {d.status}
          {d.response_status ? ` · HTTP ${d.response_status}` : ''}
          {d.error ? ` · ${d.error}` : ''} · {when(d.attempted_at)}
        </li>
      ))}
    </ul>
  );
}
