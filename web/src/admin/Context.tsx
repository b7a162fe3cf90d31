/**
 * The live context that drives every generation: the current one, an override, presets (create from the
 * form, activate), and the history of the last 30 days with the generations made in each context.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api } from './session';

interface ContextFields {
  genre: string;
  subgenre: string;
  mood: string[];
  lifestyle: 'focus' | 'party' | 'chill' | 'workout' | 'sleep';
  tempo_range: [number, number];
  key_preference: 'major' | 'minor' | 'any';
  energy_level: number;
  auto_rotate: boolean;
}
interface ContextView extends ContextFields {
  context_id: string;
  time_of_day: string;
  active_since: string;
  next_rotation: string | null;
}
interface Preset extends ContextFields {
  preset_id: string;
  name: string;
}
interface HistoryEntry extends ContextView {
  source: string;
  preset_name: string | null;
  active_until: string | null;
  generation_count: number;
}

const LIFESTYLES = ['focus', 'party', 'chill', 'workout', 'sleep'] as const;

function contextProblems(c: ContextFields): Record<string, string> {
  const p: Record<string, string> = {};
  if (!c.genre.trim()) p.genre = 'Required';
  if (c.mood.length === 0) p.mood = 'At least one mood';
  const [lo, hi] = c.tempo_range;
  if (!(Number.isInteger(lo) && Number.isInteger(hi) && lo >= 40 && hi <= 220 && lo <= hi)) p.tempo = 'Whole BPM from 40 to 220, minimum ≤ maximum';
  if (!(c.energy_level >= 0 && c.energy_level <= 1)) p.energy = 'From 0.0 to 1.0';
  return p;
}

export function ContextSection() {
  const current = useLoad(() => api.get<ContextView>('/station/v1/context/current'), []);
  const presets = useLoad(() => api.get<Page<Preset>>(`/station/v1/context/presets${query({ limit: 100 })}`), []);
  const history = useLoad(() => api.get<Page<HistoryEntry>>(`/station/v1/context/history${query({ limit: 20 })}`), []);
  const action = useAction();
  const refresh = () => {
    current.reload();
    history.reload();
  };
  const activate = async (preset: Preset) => {
    if ((await action.run(() => api.post(`/station/v1/context/presets/${encodeURIComponent(preset.preset_id)}/activate`))) !== null) refresh();
  };
  const c = current.data;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="ctx-title">
        <h2 id="ctx-title">Current context</h2>
        <Alert>{current.error}</Alert>
        {c && (
          <dl className="facts">
            <dt>Genre</dt>
            <dd>
              {c.genre}
              {c.subgenre ? ` / ${c.subgenre}` : ''}
            </dd>
            <dt>Mood</dt>
            <dd>{c.mood.join(', ')}</dd>
            <dt>Lifestyle</dt>
            <dd>{c.lifestyle}</dd>
            <dt>Tempo</dt>
            <dd>
              {c.tempo_range[0]}–{c.tempo_range[1]} BPM · key {c.key_preference} · energy {c.energy_level}
            </dd>
            <dt>Time of day</dt>
            <dd>{c.time_of_day}</dd>
            <dt>Active since</dt>
            <dd>{when(c.active_since)}</dd>
            <dt>Rotation</dt>
            <dd>{c.auto_rotate ? `automatic, next ${when(c.next_rotation)}` : 'off'}</dd>
          </dl>
        )}
      </section>
      {c && (
        <ContextForm
          initial={c}
          onDone={() => {
            refresh();
            presets.reload();
          }}
        />
      )}
      <section className="card" aria-labelledby="presets-title">
        <h2 id="presets-title">Presets</h2>
        <Alert>{presets.error ?? action.error}</Alert>
        <ul className="plain-list">
          {(presets.data?.data ?? []).map((p) => (
            <li key={p.preset_id} className="row">
              <span>
                <strong>{p.name}</strong>{' '}
                <span className="muted">
                  {p.genre} · {p.mood.join(', ')} · {p.lifestyle}
                </span>
              </span>
              <button type="button" onClick={() => void activate(p)} disabled={action.busy}>
                Activate<span className="visually-hidden"> {p.name}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="ctxh-title">
        <h2 id="ctxh-title">History (30 days)</h2>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Contexts, latest first</caption>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Context</th>
                <th scope="col">Source</th>
                <th scope="col">Generations</th>
              </tr>
            </thead>
            <tbody>
              {(history.data?.data ?? []).map((h) => (
                <tr key={h.context_id}>
                  <td>{when(h.active_since)}</td>
                  <td>
                    {h.genre} · {h.mood.join(', ')} · {h.lifestyle}
                  </td>
                  <td>
                    {h.source}
                    {h.preset_name ? ` (${h.preset_name})` : ''}
                  </td>
                  <td>{h.generation_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

function ContextForm({ initial, onDone }: { initial: ContextFields; onDone: () => void }) {
  const [draft, setDraft] = useState<ContextFields>(initial);
  const [moodText, setMoodText] = useState(initial.mood.join(', '));
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  useEffect(
    () =>
      setDraft((d) => ({
        ...d,
        mood: moodText
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      })),
    [moodText],
  );
  const problems = contextProblems(draft);
  const invalid = Object.keys(problems).length > 0;
  const fields = (c: ContextFields) => ({
    genre: c.genre,
    subgenre: c.subgenre,
    mood: c.mood,
    lifestyle: c.lifestyle,
    tempo_range: c.tempo_range,
    key_preference: c.key_preference,
    energy_level: c.energy_level,
    auto_rotate: c.auto_rotate,
  });

  const override = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    if ((await action.run(() => api.patch('/station/v1/context/current', fields(draft)))) !== null) {
      setSaved('Override applied: the next generation uses it.');
      onDone();
    }
  };
  const savePreset = async () => {
    if (invalid || !name.trim()) return;
    if ((await action.run(() => api.post('/station/v1/context/presets', { name: name.trim(), ...fields(draft) }))) !== null) {
      setSaved(`Preset “${name.trim()}” saved.`);
      setName('');
      onDone();
    }
  };
  return (
    <section className="card" aria-labelledby="override-title">
      <h2 id="override-title">Override or save as preset</h2>
      <form onSubmit={override} aria-label="Context override" noValidate>
        <div className="form-grid">
          <Field label="Genre" error={problems.genre}>
            {(id, d) => (
              <input
                id={id}
                value={draft.genre}
                onChange={(e) => setDraft({ ...draft, genre: e.target.value })}
                aria-describedby={d}
                aria-invalid={!!problems.genre}
              />
            )}
          </Field>
          <Field label="Subgenre">{(id) => <input id={id} value={draft.subgenre} onChange={(e) => setDraft({ ...draft, subgenre: e.target.value })} />}</Field>
          <Field label="Mood (comma-separated)" error={problems.mood}>
            {(id, d) => <input id={id} value={moodText} onChange={(e) => setMoodText(e.target.value)} aria-describedby={d} aria-invalid={!!problems.mood} />}
          </Field>
          <Field label="Lifestyle">
            {(id) => (
              <select id={id} value={draft.lifestyle} onChange={(e) => setDraft({ ...draft, lifestyle: e.target.value as ContextFields['lifestyle'] })}>
                {LIFESTYLES.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Tempo minimum (BPM)" error={problems.tempo}>
            {(id, d) => (
              <input
                id={id}
                type="number"
                value={draft.tempo_range[0]}
                onChange={(e) => setDraft({ ...draft, tempo_range: [Number(e.target.value), draft.tempo_range[1]] })}
                aria-describedby={d}
              />
            )}
          </Field>
          <Field label="Tempo maximum (BPM)">
            {(id) => (
              <input
                id={id}
                type="number"
                value={draft.tempo_range[1]}
                onChange={(e) => setDraft({ ...draft, tempo_range: [draft.tempo_range[0], Number(e.target.value)] })}
              />
            )}
          </Field>
          <Field label="Key">
            {(id) => (
              <select
                id={id}
                value={draft.key_preference}
                onChange={(e) => setDraft({ ...draft, key_preference: e.target.value as ContextFields['key_preference'] })}
              >
                <option>any</option>
                <option>major</option>
                <option>minor</option>
              </select>
            )}
          </Field>
          <Field label="Energy (0–1)" error={problems.energy}>
            {(id, d) => (
              <input
                id={id}
                type="number"
                step="0.05"
                value={draft.energy_level}
                onChange={(e) => setDraft({ ...draft, energy_level: Number(e.target.value) })}
                aria-describedby={d}
              />
            )}
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.auto_rotate} onChange={(e) => setDraft({ ...draft, auto_rotate: e.target.checked })} /> Rotate automatically
        </label>
        <Alert>{action.error}</Alert>
        <Alert tone="ok">{saved}</Alert>
        <div className="row">
          <button type="submit" className="primary" disabled={action.busy || invalid}>
            Apply override
          </button>
          <Field label="Preset name">{(id) => <input id={id} value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />}</Field>
          <button type="button" onClick={() => void savePreset()} disabled={action.busy || invalid || !name.trim()}>
            Save as preset
          </button>
        </div>
      </form>
    </section>
  );
}
