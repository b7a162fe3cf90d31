/**
 * The registry of AI tracks: browse with filters, toggle reuse, flag for safety review, download the
 * audit export (JSON, NDJSON or CSV, with the chain head inside), and verify the hash chain, optionally
 * against a head kept earlier.
 */
import { useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api } from './session';
import type { RegistryRecord } from './types';

interface Filters {
  model_version: string;
  session_id: string;
  date_from: string;
  date_to: string;
  reuse_eligible: string;
  flag_for_review: string;
}

const EMPTY: Filters = { model_version: '', session_id: '', date_from: '', date_to: '', reuse_eligible: '', flag_for_review: '' };
const LIMIT = 20;

export function RegistrySection() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const tracks = useLoad(() => api.get<Page<RegistryRecord>>(`/station/v1/registry/tracks${query({ ...filters, page, limit: LIMIT })}`), [filters, page]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  const text = (key: keyof Filters, label: string, type = 'text') => (
    <Field label={label}>{(id) => <input id={id} type={type} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />}</Field>
  );
  const choice = (key: keyof Filters, label: string) => (
    <Field label={label}>
      {(id) => (
        <select id={id} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}>
          <option value="">any</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      )}
    </Field>
  );
  const total = tracks.data?.total ?? 0;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="filters-title">
        <h2 id="filters-title">Browse</h2>
        <form onSubmit={apply} aria-label="Registry filters">
          <div className="form-grid">
            {text('model_version', 'Model version')}
            {text('session_id', 'Session')}
            {text('date_from', 'Generated from', 'date')}
            {text('date_to', 'Generated to', 'date')}
            {choice('reuse_eligible', 'Reuse eligible')}
            {choice('flag_for_review', 'Flagged for review')}
          </div>
          <button type="submit" className="primary">
            Apply filters
          </button>
        </form>
      </section>
      <section className="card" aria-labelledby="records-title">
        <h2 id="records-title">
          Records <span className="muted">({total})</span>
        </h2>
        <Alert>{tracks.error}</Alert>
        <RecordTable records={tracks.data?.data ?? []} onChange={tracks.reload} />
        <div className="row">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span className="muted">
            Page {page} of {Math.max(1, Math.ceil(total / LIMIT))}
          </span>
          <button type="button" disabled={page * LIMIT >= total} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </div>
      </section>
      <div className="grid">
        <AuditExport />
        <ChainCheck />
      </div>
    </div>
  );
}

export function RecordTable({ records, onChange, review = false }: { records: RegistryRecord[]; onChange: () => void; review?: boolean }) {
  const action = useAction();
  const patch = async (record: RegistryRecord, body: Partial<Pick<RegistryRecord, 'reuse_eligible' | 'flag_for_review'>>) => {
    if ((await action.run(() => api.patch(`/station/v1/registry/tracks/${encodeURIComponent(record.station_track_id)}`, body))) !== null) onChange();
  };
  if (records.length === 0) return <p className="muted">{review ? 'The review queue is empty.' : 'No records match.'}</p>;
  return (
    <>
      <Alert>{action.error}</Alert>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{review ? 'Tracks waiting for safety review' : 'Registry records, newest first'}</caption>
          <thead>
            <tr>
              <th scope="col">Track</th>
              <th scope="col">Generated</th>
              <th scope="col">{review ? 'Why' : 'Model'}</th>
              <th scope="col">Plays</th>
              <th scope="col">Safety</th>
              <th scope="col">{review ? 'Decision' : 'Actions'}</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.station_track_id} data-track-id={r.station_track_id}>
                <td>
                  <strong>{r.title}</strong>
                  <br />
                  <span className="muted">
                    {r.genre} · seq {r.seq}
                  </span>
                </td>
                <td>{when(r.generated_at)}</td>
                <td>
                  {review ? (
                    <>
                      {r.listener_reports > 0 ? `${r.listener_reports} listener report${r.listener_reports > 1 ? 's' : ''}` : 'flagged by an admin'}
                      {r.withheld ? ` · withheld (${r.withheld_reason ?? 'review'})` : ' · still playing'}
                    </>
                  ) : (
                    r.model_version
                  )}
                </td>
                <td>{r.playback_count}</td>
                <td>
                  {r.safety_score.toFixed(2)}
                  {r.flag_for_review ? ' · in review' : ''}
                </td>
                <td>
                  <div className="row">
                    {review ? (
                      <>
                        <button
                          type="button"
                          onClick={() => void patch(r, { flag_for_review: false })}
                          disabled={action.busy || r.withheld_reason === 'safety_filter'}
                        >
                          Approve<span className="visually-hidden"> {r.title}</span>
                        </button>
                        {!r.withheld && (
                          <button type="button" className="danger" onClick={() => void patch(r, { flag_for_review: true })} disabled={action.busy}>
                            Withhold<span className="visually-hidden"> {r.title}</span>
                          </button>
                        )}
                      </>
                    ) : (
                      <>
                        <label className="check">
                          <input
                            type="checkbox"
                            checked={r.reuse_eligible}
                            onChange={(e) => void patch(r, { reuse_eligible: e.target.checked })}
                            disabled={action.busy}
                          />{' '}
                          Reuse
                          <span className="visually-hidden"> {r.title}</span>
                        </label>
                        {!r.flag_for_review && (
                          <button type="button" className="danger" onClick={() => void patch(r, { flag_for_review: true })} disabled={action.busy}>
                            Flag for review<span className="visually-hidden"> {r.title}</span>
                          </button>
                        )}
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function AuditExport() {
  const [format, setFormat] = useState('json');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const action = useAction();
  const download = async (event: FormEvent) => {
    event.preventDefault();
    const response = await action.run(() => api.fetch('GET', `/station/v1/registry/audit-export${query({ format, date_from: from, date_to: to })}`));
    if (!response) return;
    const blob = await response.blob();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `registry-audit.${format}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Audit export</h2>
      <form onSubmit={download} aria-label="Audit export">
        <Field label="Format">
          {(id) => (
            <select id={id} value={format} onChange={(e) => setFormat(e.target.value)}>
              <option value="json">JSON</option>
              <option value="ndjson">NDJSON</option>
              <option value="csv">CSV</option>
            </select>
          )}
        </Field>
        <Field label="From">{(id) => <input id={id} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}</Field>
        <Field label="To">{(id) => <input id={id} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}</Field>
        <Alert>{action.error}</Alert>
        <button type="submit" disabled={action.busy}>
          Download export
        </button>
      </form>
    </section>
  );
}

interface Verification {
  valid: boolean;
  checked: number;
  head: { seq: number; record_hash: string } | null;
  anchor: { seq: number; record_hash: string; matches: boolean } | null;
  first_invalid: { seq: number; reason: string; detail: string } | null;
}

function ChainCheck() {
  const [anchorSeq, setAnchorSeq] = useState('');
  const [anchorHash, setAnchorHash] = useState('');
  const [result, setResult] = useState<Verification | null>(null);
  const action = useAction();
  const verify = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(() =>
      api.get<Verification>(`/station/v1/registry/chain/verify${query({ anchor_seq: anchorSeq, anchor_hash: anchorHash })}`),
    );
    if (answer) setResult(answer);
  };
  return (
    <section className="card" aria-labelledby="chain-title">
      <h2 id="chain-title">Hash chain</h2>
      <form onSubmit={verify} aria-label="Verify the hash chain">
        <Field label="Anchor seq (optional)">
          {(id) => <input id={id} inputMode="numeric" value={anchorSeq} onChange={(e) => setAnchorSeq(e.target.value)} />}
        </Field>
        <Field label="Anchor hash (optional)" hint="sha256:… of a chain head kept earlier">
          {(id, d) => <input id={id} value={anchorHash} onChange={(e) => setAnchorHash(e.target.value)} aria-describedby={d} />}
        </Field>
        <Alert>{action.error}</Alert>
        <button type="submit" disabled={action.busy}>
          Verify chain
        </button>
      </form>
      {result && (
        <div role="status">
          <p>
            <strong>{result.valid ? 'Valid' : 'Broken'}</strong>: {result.checked} records checked.
          </p>
          {result.head && (
            <p>
              Head: seq {result.head.seq}, <code>{result.head.record_hash}</code>
            </p>
          )}
          {result.anchor && (
            <p>
              Anchor seq {result.anchor.seq}: {result.anchor.matches ? 'the chain still passes through it' : 'does NOT match'}
            </p>
          )}
          {result.first_invalid && (
            <Alert>
              First invalid record: seq {result.first_invalid.seq} ({result.first_invalid.reason}) {result.first_invalid.detail}
            </Alert>
          )}
        </div>
      )}
    </section>
  );
}
