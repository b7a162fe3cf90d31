/**
 * Webhooks: register an endpoint with the events it wants (POST /v1/webhooks; the signing secret shown once),
 * list and remove them, and read each one's delivery log (GET /v1/webhooks/{id}/deliveries: one row per attempt,
 * retries included), refreshed while it is open.
 */
import { useState, type FormEvent } from 'react';
import { query, type Page } from '../shared/api';
import { ShownOnce } from '../shared/AreaShell';
import { api } from '../shared/platform-session';
import { Alert, Field, useAction, useInterval, useLoad, when } from '../shared/ui';
import type { Delivery, Me, RegisteredWebhook, Webhook, WebhookEvent } from './types';

const PLATFORM_EVENTS: Array<[WebhookEvent, string]> = [
  ['track.published', 'a track is published'],
  ['track.removed', 'a track is taken down'],
  ['artist.verified', 'an admin verifies an artist'],
  ['payment.success', 'a sale of your releases (artists)'],
  ['capsule.unlocked', 'a listener opens one of your capsules (artists)'],
  ['user.signup', 'a new user (admins)'],
  ['user.subscribed', 'a user upgrades to Pro (admins)'],
];
const STATION_EVENTS: Array<[WebhookEvent, string]> = [
  ['station.track.now_playing', 'the radio plays a new track'],
  ['station.radio.enabled', 'the radio goes on air'],
  ['station.radio.disabled', 'the radio goes off air'],
  ['station.track.generation_complete', 'an AI track is ready'],
  ['station.track.generation_failed', 'an AI track failed'],
  ['station.training.job_completed', 'a training job completed'],
  ['station.training.job_failed', 'a training job failed'],
  ['station.safety.flag_raised', 'the safety filter flagged a track'],
];
const DELIVERY_POLL_MS = 5000;

export function WebhooksSection({ me }: { me: Me }) {
  const mayRead = me.credential.scopes.includes('webhooks:read');
  const mayWrite = me.credential.scopes.includes('webhooks:write');
  if (!mayRead && !mayWrite) {
    return (
      <Alert tone="info">
        Webhooks need the webhooks:read and webhooks:write scopes, which this login does not hold: open a developer account (it adds them to any role), or log
        in again if you just opened one.
      </Alert>
    );
  }
  return <Webhooks mayWrite={mayWrite} role={me.role} />;
}

function Webhooks({ mayWrite, role }: { mayWrite: boolean; role: string }) {
  const hooks = useLoad(() => api.get<Page<Webhook>>(`/v1/webhooks${query({ limit: 100 })}`), []);
  const [created, setCreated] = useState<RegisteredWebhook | null>(null);
  return (
    <div className="stack">
      {!mayWrite && (
        <Alert tone="info">Registering webhooks needs the webhooks:write scope, which this login ({role}) does not hold: a developer account adds it.</Alert>
      )}
      {created ? (
        <ShownOnce label={`Signing secret of ${created.url}`} value={created.secret} onDone={() => setCreated(null)} />
      ) : (
        mayWrite && (
          <NewWebhook
            onCreated={(hook) => {
              setCreated(hook);
              hooks.reload();
            }}
          />
        )
      )}
      <section aria-labelledby="hooks-title">
        <h2 id="hooks-title">Your webhooks</h2>
        <Alert>{hooks.error}</Alert>
        {hooks.data && hooks.data.data.length === 0 && <p className="muted">No webhook yet.</p>}
        <ul className="plain-list">
          {hooks.data?.data.map((hook) => (
            <li key={hook.id}>
              <WebhookRow hook={hook} mayWrite={mayWrite} onRemoved={hooks.reload} />
            </li>
          ))}
        </ul>
      </section>
      <p className="muted">
        Each delivery is a POST of a JSON body with <code>X-Platform-Signature: sha256=&lt;hex&gt;</code> (or <code>X-Station-Signature</code> for station
        events), the HMAC-SHA256 of the raw body keyed with the webhook's secret, and <code>X-Webhook-Id</code>, the same on every retry. Answer 2xx to accept
        it; anything else, or no answer, is retried with exponential backoff.
      </p>
    </div>
  );
}

function NewWebhook({ onCreated }: { onCreated: (hook: RegisteredWebhook) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['track.published']);
  const { busy, error, run } = useAction();
  const toggle = (event: WebhookEvent, on: boolean) => setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const hook = await run(() => api.post<RegisteredWebhook>('/v1/webhooks', { url, events }));
    if (hook) {
      setUrl('');
      onCreated(hook);
    }
  };
  const choices = (title: string, list: Array<[WebhookEvent, string]>) => (
    <fieldset className="events">
      <legend>{title}</legend>
      {list.map(([name, what]) => (
        <label key={name} className="check">
          <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
          <span>
            <code>{name}</code> <span className="muted">{what}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
  return (
    <form className="card" onSubmit={submit} aria-label="Register a webhook">
      <h2>Register a webhook</h2>
      <Field label="Endpoint URL" hint="https://… on a public address">
        {(id, describedBy) => (
          <input id={id} type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby={describedBy} />
        )}
      </Field>
      {choices('Platform events', PLATFORM_EVENTS)}
      {choices('Station events', STATION_EVENTS)}
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy || events.length === 0}>
        Register webhook
      </button>
    </form>
  );
}

function WebhookRow({ hook, mayWrite, onRemoved }: { hook: Webhook; mayWrite: boolean; onRemoved: () => void }) {
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <article className="track-row" aria-label={`Webhook ${hook.url}`}>
      <h3>
        <code>{hook.url}</code>
      </h3>
      <p className="muted">
        {hook.events.join(', ')} · {hook.environment === 'test' ? 'sandbox' : 'live'} · {hook.active ? 'active' : 'inactive'} · since {when(hook.created_at)}
      </p>
      <div className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          Delivery log <span className="visually-hidden">of {hook.url}</span>
        </button>
        {mayWrite && (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void run(() => api.delete(`/v1/webhooks/${hook.id}`)).then((r) => r !== null && onRemoved())}
          >
            Remove <span className="visually-hidden">{hook.url}</span>
          </button>
        )}
      </div>
      <Alert>{error}</Alert>
      {open && <Deliveries id={hook.id} />}
    </article>
  );
}

function Deliveries({ id }: { id: string }) {
  const log = useLoad(() => api.get<Page<Delivery>>(`/v1/webhooks/${id}/deliveries${query({ limit: 50 })}`), [id]);
  useInterval(log.reload, DELIVERY_POLL_MS);
  const rows = log.data?.data ?? [];
  return (
    <div className="table-wrap" data-testid="deliveries">
      <Alert>{log.error}</Alert>
      {log.data && rows.length === 0 && <p className="muted">No delivery yet: one appears here when an event you chose happens.</p>}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Delivery attempts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">When</th>
              <th scope="col">Next retry</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.event}</code>
                </td>
                <td>{d.attempt}</td>
                <td>
                  <span className={`status-badge status-${d.status}`}>{d.status}</span>
                </td>
                <td>
                  {d.response_status ?? '—'}
                  {d.error ? ` (${d.error})` : ''}
                  {d.duration_ms !== null ? ` · ${d.duration_ms} ms` : ''}
                </td>
                <td>{when(d.attempted_at ?? d.created_at)}</td>
                <td>{d.status === 'retrying' || d.status === 'pending' ? when(d.next_attempt_at) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
