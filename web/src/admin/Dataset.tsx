/**
 * The training dataset: its configuration (the sources are fixed and shown read-only), per-artist
 * include/exclude with a reason, statistics, snapshots, and the validation report.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { BarChart } from '../shared/charts';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api } from './session';
import type { Snapshot } from './types';

interface DatasetConfig {
  training_sources: { audio: string; lyrics: string; sonic_capsules: boolean };
  artist_filter: { mode: 'whitelist' | 'blacklist' | 'all'; artist_ids: string[] };
  era_filter: { include_years: number[] };
  quality_gate: { min_audio_bitrate: number; require_isrc: boolean; require_credits: boolean };
  updated_at: string;
}
interface Stats {
  total_masters_eligible: number;
  total_lyric_files: number;
  total_hours_audio: number;
  era_breakdown: Record<string, number>;
  total_tracks: number;
  excluded_masters: Record<string, number>;
}
interface Artist {
  artist_id: string;
  name: string;
  platform_owned: boolean;
  status: 'included' | 'excluded';
  status_reason: string;
  eligible_masters: number;
  eligible_lyrics: number;
}
interface Report {
  valid: boolean;
  checked: { masters: number; lyrics: number; non_platform_references: number };
  problems: Array<{ item_type: string; item_id: string; title?: string; problem: string; detail: string }>;
  validated_at: string;
}

export function DatasetSection() {
  const stats = useLoad(() => api.get<Stats>('/station/v1/dataset/stats'), []);
  const s = stats.data;
  return (
    <div className="stack">
      <div className="grid">
        <section className="card" aria-labelledby="stats-title">
          <h2 id="stats-title">Statistics</h2>
          <Alert>{stats.error}</Alert>
          {s && (
            <>
              <p>
                {s.total_masters_eligible} of {s.total_tracks} masters eligible · {s.total_lyric_files} lyric files · {s.total_hours_audio.toFixed(2)} hours of
                audio
              </p>
              <BarChart title="Eligible masters by release year" bars={Object.entries(s.era_breakdown).map(([year, n]) => ({ label: year, value: n }))} />
              <BarChart
                title="Masters left out, by reason"
                bars={Object.entries(s.excluded_masters)
                  .filter(([, n]) => n > 0)
                  .map(([why, n]) => ({ label: why.replace(/_/g, ' '), value: n }))}
              />
            </>
          )}
        </section>
        <ConfigForm onSaved={stats.reload} />
      </div>
      <Artists onChange={stats.reload} />
      <Snapshots />
    </div>
  );
}

function ConfigForm({ onSaved }: { onSaved: () => void }) {
  const loaded = useLoad(() => api.get<DatasetConfig>('/station/v1/dataset/config'), []);
  const [draft, setDraft] = useState<DatasetConfig | null>(null);
  const [years, setYears] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  useEffect(() => {
    if (!loaded.data) return;
    setDraft(loaded.data);
    setYears(loaded.data.era_filter.include_years.join(', '));
  }, [loaded.data]);
  if (!draft)
    return (
      <section className="card">
        <Alert>{loaded.error}</Alert>
      </section>
    );
  const yearList = years
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  const yearsError = yearList.every((y) => Number.isInteger(y) && y >= 1900 && y <= 2100) ? null : 'Years from 1900 to 2100, separated by commas';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (yearsError) return;
    const body = {
      training_sources: { sonic_capsules: draft.training_sources.sonic_capsules },
      artist_filter: { mode: draft.artist_filter.mode },
      era_filter: { include_years: yearList },
      quality_gate: draft.quality_gate,
    };
    const answer = await action.run(() => api.patch<DatasetConfig>('/station/v1/dataset/config', body));
    if (answer) {
      setDraft(answer);
      setSaved('Saved: applies to the next training run.');
      onSaved();
    }
  };
  const gate = draft.quality_gate;
  return (
    <section className="card" aria-labelledby="dsc-title">
      <h2 id="dsc-title">Configuration</h2>
      <p className="muted">
        Sources (fixed): audio <code>{draft.training_sources.audio}</code>, lyrics <code>{draft.training_sources.lyrics}</code>
      </p>
      <form onSubmit={submit} aria-label="Dataset configuration" noValidate>
        <Field label="Artist filter">
          {(id) => (
            <select
              id={id}
              value={draft.artist_filter.mode}
              onChange={(e) =>
                setDraft({ ...draft, artist_filter: { ...draft.artist_filter, mode: e.target.value as DatasetConfig['artist_filter']['mode'] } })
              }
            >
              <option value="all">all platform-owned artists</option>
              <option value="whitelist">whitelist</option>
              <option value="blacklist">blacklist</option>
            </select>
          )}
        </Field>
        <Field label="Release years included" hint="Empty: every year" error={yearsError}>
          {(id, d) => <input id={id} value={years} onChange={(e) => setYears(e.target.value)} aria-describedby={d} aria-invalid={!!yearsError} />}
        </Field>
        <Field label="Minimum bitrate (kbps)">
          {(id) => (
            <input
              id={id}
              type="number"
              min={0}
              max={5000}
              value={gate.min_audio_bitrate}
              onChange={(e) => setDraft({ ...draft, quality_gate: { ...gate, min_audio_bitrate: Number(e.target.value) } })}
            />
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={gate.require_isrc}
            onChange={(e) => setDraft({ ...draft, quality_gate: { ...gate, require_isrc: e.target.checked } })}
          />{' '}
          Require ISRC
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={gate.require_credits}
            onChange={(e) => setDraft({ ...draft, quality_gate: { ...gate, require_credits: e.target.checked } })}
          />{' '}
          Require songwriter credits
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.training_sources.sonic_capsules}
            onChange={(e) => setDraft({ ...draft, training_sources: { ...draft.training_sources, sonic_capsules: e.target.checked } })}
          />{' '}
          Include sonic capsule metadata
        </label>
        <Alert>{action.error}</Alert>
        <Alert tone="ok">{saved}</Alert>
        <button type="submit" className="primary" disabled={action.busy}>
          Save dataset configuration
        </button>
      </form>
    </section>
  );
}

function Artists({ onChange }: { onChange: () => void }) {
  const [status, setStatus] = useState('');
  const artists = useLoad(() => api.get<Page<Artist>>(`/station/v1/dataset/artists${query({ status, limit: 100 })}`), [status]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const action = useAction();
  const change = async (artist: Artist, next: Artist['status']) => {
    const reason = (reasons[artist.artist_id] ?? '').trim();
    if (!reason) {
      action.setError(`Give a reason to ${next === 'included' ? 'include' : 'exclude'} ${artist.name}`);
      return;
    }
    if ((await action.run(() => api.patch(`/station/v1/dataset/artists/${encodeURIComponent(artist.artist_id)}`, { status: next, reason }))) !== null) {
      artists.reload();
      onChange();
    }
  };
  return (
    <section className="card" aria-labelledby="artists-title">
      <h2 id="artists-title">Artists</h2>
      <Field label="Show">
        {(id) => (
          <select id={id} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">all</option>
            <option value="included">included</option>
            <option value="excluded">excluded</option>
          </select>
        )}
      </Field>
      <Alert>{artists.error ?? action.error}</Alert>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Artists and their dataset status</caption>
          <thead>
            <tr>
              <th scope="col">Artist</th>
              <th scope="col">Status</th>
              <th scope="col">Eligible</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {(artists.data?.data ?? []).map((a) => (
              <tr key={a.artist_id}>
                <td>{a.name}</td>
                <td>
                  {a.status}
                  <br />
                  <span className="muted">{a.status_reason}</span>
                </td>
                <td>
                  {a.eligible_masters} masters · {a.eligible_lyrics} lyrics
                </td>
                <td>
                  {a.platform_owned ? (
                    <div className="row">
                      <label className="visually-hidden" htmlFor={`reason-${a.artist_id}`}>
                        Reason for {a.name}
                      </label>
                      <input
                        id={`reason-${a.artist_id}`}
                        placeholder="Reason"
                        value={reasons[a.artist_id] ?? ''}
                        onChange={(e) => setReasons({ ...reasons, [a.artist_id]: e.target.value })}
                      />
                      <button type="button" onClick={() => void change(a, a.status === 'included' ? 'excluded' : 'included')} disabled={action.busy}>
                        {a.status === 'included' ? 'Exclude' : 'Include'}
                        <span className="visually-hidden"> {a.name}</span>
                      </button>
                    </div>
                  ) : (
                    <span className="muted">not platform-owned: never trained on</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Snapshots() {
  const snapshots = useLoad(() => api.get<Page<Snapshot>>(`/station/v1/dataset/snapshots${query({ limit: 20 })}`), []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [report, setReport] = useState<Report | null>(null);
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    if ((await action.run(() => api.post('/station/v1/dataset/snapshot', { name: name.trim(), description }))) !== null) {
      setName('');
      setDescription('');
      snapshots.reload();
    }
  };
  const validate = async (snapshotId?: string) => {
    const answer = await action.run(() => api.post<Report>('/station/v1/dataset/validate', snapshotId ? { snapshot_id: snapshotId } : {}));
    if (answer) setReport(answer);
  };
  return (
    <section className="card" aria-labelledby="snap-title">
      <h2 id="snap-title">Snapshots and validation</h2>
      <form onSubmit={create} aria-label="New snapshot" className="row">
        <Field label="Snapshot name">{(id) => <input id={id} required value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Description">{(id) => <input id={id} value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <button type="submit" className="primary" disabled={action.busy || !name.trim()}>
          Take snapshot
        </button>
        <button type="button" onClick={() => void validate()} disabled={action.busy}>
          Validate current dataset
        </button>
      </form>
      <Alert>{snapshots.error ?? action.error}</Alert>
      <ul className="plain-list">
        {(snapshots.data?.data ?? []).map((s) => (
          <li key={s.snapshot_id}>
            <strong>{s.name}</strong> · {when(s.created_at)} · {s.item_counts.audio} audio, {s.item_counts.lyrics} lyrics · used by {s.training_runs.length}{' '}
            run(s)
            <br />
            <code>{s.dataset_hash}</code>{' '}
            <button type="button" onClick={() => void validate(s.snapshot_id)} disabled={action.busy}>
              Validate<span className="visually-hidden"> {s.name}</span>
            </button>
          </li>
        ))}
      </ul>
      {report && (
        <div role="status">
          <h3>Validation report</h3>
          <p>
            <strong>{report.valid ? 'Valid' : 'Problems found'}</strong>: {report.checked.masters} masters, {report.checked.lyrics} lyrics checked (
            {when(report.validated_at)})
          </p>
          <ul>
            {report.problems.slice(0, 50).map((p) => (
              <li key={`${p.item_id}-${p.problem}`}>
                {p.item_type} {p.title ?? p.item_id}: {p.problem.replace(/_/g, ' ')} ({p.detail})
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
