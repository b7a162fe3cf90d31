/**
 * Capsules (Sonic Capsules with Tap-to-Reveal): the artist's capsules (GET /v1/artists/{slug}/capsules, then each
 * one whole with GET /v1/capsules/{id}, the owner sees the hidden content), a new one (POST /v1/capsules) with its
 * teaser, hidden content and unlock rule, and a change of rule or teaser (PATCH /v1/capsules/{id}).
 */
import { useState, type FormEvent } from 'react';
import { query, type Page } from '../shared/api';
import { api } from '../shared/platform-session';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { publishedTracks } from './Tracks';
import type { Artist, Capsule, CapsuleInput, CapsuleItem, Product } from './types';

type Rule = 'none' | 'follow' | 'own';

const RULES: Array<[Rule, string, string]> = [
  ['none', 'Anyone signed in', 'any signed-in listener may open it'],
  ['follow', 'Followers', 'only listeners who follow you'],
  ['own', 'Buyers', 'only listeners who bought from you (one product, or any)'],
];

export function CapsulesSection({ artist }: { artist: Artist }) {
  const capsules = useLoad(() => api.get<Page<CapsuleItem>>(`/v1/artists/${encodeURIComponent(artist.slug)}/capsules${query({ limit: 100 })}`), [artist.slug]);
  const products = useLoad(() => api.get<Page<Product>>(`/v1/store/products${query({ artist: artist.slug, limit: 100 })}`), [artist.slug]);
  return (
    <div className="stack">
      <NewCapsule artist={artist} products={products.data?.data ?? []} onCreated={capsules.reload} />
      <section aria-labelledby="capsules-title">
        <h2 id="capsules-title">Your capsules</h2>
        <Alert>{capsules.error}</Alert>
        {capsules.data && capsules.data.data.length === 0 && <p className="muted">No capsule yet.</p>}
        <ul className="plain-list">
          {capsules.data?.data.map((capsule) => (
            <li key={capsule.id}>
              <CapsuleRow id={capsule.id} products={products.data?.data ?? []} onChanged={capsules.reload} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function RuleChoice({
  rule,
  setRule,
  productId,
  setProductId,
  products,
}: {
  rule: Rule;
  setRule: (r: Rule) => void;
  productId: string;
  setProductId: (id: string) => void;
  products: Product[];
}) {
  return (
    <fieldset>
      <legend>Who may open it</legend>
      {RULES.map(([value, label, hint]) => (
        <label key={value} className="check">
          <input type="radio" name="unlock-rule" value={value} checked={rule === value} onChange={() => setRule(value)} />
          <span>
            {label} <span className="muted">({hint})</span>
          </span>
        </label>
      ))}
      {rule === 'own' && (
        <Field label="Product to own">
          {(id) => (
            <select id={id} value={productId} onChange={(e) => setProductId(e.target.value)}>
              <option value="">Any of my products</option>
              {products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </fieldset>
  );
}

function NewCapsule({ artist, products, onCreated }: { artist: Artist; products: Product[]; onCreated: () => void }) {
  const tracks = publishedTracks(artist);
  const [title, setTitle] = useState('');
  const [teaser, setTeaser] = useState('');
  const [text, setText] = useState('');
  const [trackId, setTrackId] = useState('');
  const [mediaUrl, setMediaUrl] = useState('');
  const [rule, setRule] = useState<Rule>('follow');
  const [productId, setProductId] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    const body: CapsuleInput = {
      title,
      teaser,
      content_text: text.trim() || null,
      content_track_id: trackId || null,
      content_media_url: mediaUrl.trim() || null,
      unlock_rule: rule,
      unlock_product_id: rule === 'own' && productId ? productId : null,
    };
    const capsule = await run(() => api.post<Capsule>('/v1/capsules', body));
    if (capsule) {
      setCreated(`Capsule “${capsule.title}” is open to your listeners.`);
      setTitle('');
      setTeaser('');
      setText('');
      setTrackId('');
      setMediaUrl('');
      onCreated();
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-label="New capsule">
      <h2>New capsule</h2>
      <p className="muted">
        Everyone sees the title and the teaser; the hidden content is revealed to those your rule lets in. Give at least one kind of hidden content.
      </p>
      <div className="form-grid">
        <Field label="Title">{(id) => <input id={id} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}</Field>
        <Field label="Teaser">{(id) => <input id={id} required maxLength={500} value={teaser} onChange={(e) => setTeaser(e.target.value)} />}</Field>
      </div>
      <Field label="Hidden message">{(id) => <textarea id={id} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />}</Field>
      <div className="form-grid">
        <Field label="Hidden track">
          {(id) => (
            <select id={id} value={trackId} onChange={(e) => setTrackId(e.target.value)}>
              <option value="">None</option>
              {tracks.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Hidden link" hint="https://… (optional)">
          {(id, describedBy) => <input id={id} type="url" value={mediaUrl} onChange={(e) => setMediaUrl(e.target.value)} aria-describedby={describedBy} />}
        </Field>
      </div>
      <RuleChoice rule={rule} setRule={setRule} productId={productId} setProductId={setProductId} products={products} />
      <Alert>{error}</Alert>
      <p className="status-line" role="status" aria-live="polite">
        {created}
      </p>
      <button className="primary" type="submit" disabled={busy}>
        Create capsule
      </button>
    </form>
  );
}

function CapsuleRow({ id, products, onChanged }: { id: string; products: Product[]; onChanged: () => void }) {
  const { data: capsule, error, reload } = useLoad(() => api.get<Capsule>(`/v1/capsules/${id}`), [id]);
  const [editing, setEditing] = useState(false);
  if (error) return <Alert>{error}</Alert>;
  if (!capsule) return <p className="status-line">Loading…</p>;
  const rule = RULES.find(([value]) => value === capsule.unlock_rule);
  return (
    <article className="track-row" aria-label={`Capsule ${capsule.title}`}>
      <h3>{capsule.title}</h3>
      <p>{capsule.teaser}</p>
      <dl className="facts">
        <dt>Who may open it</dt>
        <dd>{rule ? rule[1] : capsule.unlock_rule}</dd>
        <dt>Hidden content</dt>
        <dd>
          {[
            capsule.content?.text ? `message: “${capsule.content.text}”` : null,
            capsule.content?.track ? `track: ${capsule.content.track.title}` : null,
            capsule.content?.media_url ? `link: ${capsule.content.media_url}` : null,
          ]
            .filter(Boolean)
            .join('; ') || '—'}
        </dd>
        <dt>Created</dt>
        <dd>{when(capsule.created_at)}</dd>
      </dl>
      <div className="actions">
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          Change <span className="visually-hidden">{capsule.title}</span>
        </button>
      </div>
      {editing && (
        <EditCapsule
          capsule={capsule}
          products={products}
          onDone={() => {
            setEditing(false);
            reload();
            onChanged();
          }}
        />
      )}
    </article>
  );
}

function EditCapsule({ capsule, products, onDone }: { capsule: Capsule; products: Product[]; onDone: () => void }) {
  const [teaser, setTeaser] = useState(capsule.teaser);
  const [rule, setRule] = useState<Rule>(capsule.unlock_rule);
  const [productId, setProductId] = useState(capsule.unlock_product_id ?? '');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const patch = { teaser, unlock_rule: rule, unlock_product_id: rule === 'own' && productId ? productId : null };
    if ((await run(() => api.patch(`/v1/capsules/${capsule.id}`, patch))) !== null) onDone();
  };
  return (
    <form onSubmit={submit} aria-label={`Change ${capsule.title}`}>
      <Field label="Teaser">{(id) => <input id={id} required maxLength={500} value={teaser} onChange={(e) => setTeaser(e.target.value)} />}</Field>
      <RuleChoice rule={rule} setRule={setRule} productId={productId} setProductId={setProductId} products={products} />
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Save capsule
      </button>
    </form>
  );
}
