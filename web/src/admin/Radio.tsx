/**
 * The radio switch (enable; disable with a reason) and the station configuration form. The form checks
 * what the server checks before sending anything (each field's range, the ratios summing to 1.0, the mode
 * fitting the ratios), shows each problem beside its field, and shows the server's error when it refuses.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api } from './session';
import type { StationConfig, StationStatus } from './types';

const RATIO_TOLERANCE = 1e-9;
type Problems = Partial<Record<keyof StationConfig, string>>;

function intIn(value: number, min: number, max: number): string | undefined {
  return Number.isInteger(value) && value >= min && value <= max ? undefined : `A whole number from ${min} to ${max}`;
}

/** The server's rules (src/station/admin/config.service.ts configViolations), field by field. */
export function configProblems(c: StationConfig): Problems {
  const problems: Problems = {};
  for (const key of ['catalog_ratio', 'ai_generation_ratio'] as const) {
    if (!Number.isFinite(c[key]) || c[key] < 0 || c[key] > 1) problems[key] = 'Between 0.0 and 1.0';
  }
  if (!problems.catalog_ratio && !problems.ai_generation_ratio && Math.abs(c.catalog_ratio + c.ai_generation_ratio - 1) > RATIO_TOLERANCE) {
    const sum = Math.round((c.catalog_ratio + c.ai_generation_ratio) * 1000) / 1000;
    problems.ai_generation_ratio = `The ratios must sum to 1.0 (now ${sum})`;
  }
  if (c.generation_mode === 'catalog_only' && c.ai_generation_ratio !== 0) problems.generation_mode = 'catalog_only needs AI ratio 0 (catalog ratio 1)';
  if (c.generation_mode === 'ai_only' && c.catalog_ratio !== 0) problems.generation_mode = 'ai_only needs catalog ratio 0 (AI ratio 1)';
  const ranges: Array<[keyof StationConfig, number, number]> = [
    ['max_track_length_sec', 10, 900],
    ['generation_lead_time', 10, 3600],
    ['crossfade_sec', 0, 10],
    ['report_threshold', 1, 1000],
  ];
  for (const [key, min, max] of ranges) {
    const problem = intIn(c[key] as number, min, max);
    if (problem) problems[key] = problem;
  }
  return problems;
}

export function RadioSection() {
  const status = useLoad(() => api.get<StationStatus>('/station/v1/admin/status'), []);
  return (
    <div className="stack">
      <RadioSwitch status={status.data} error={status.error} onChange={status.reload} />
      <ConfigForm />
    </div>
  );
}

function RadioSwitch({ status, error, onChange }: { status: StationStatus | null; error: string | null; onChange: () => void }) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const action = useAction();
  const enabled = status?.radio_enabled ?? false;

  const enable = async () => {
    if ((await action.run(() => api.post('/station/v1/admin/radio/enable'))) !== null) onChange();
  };
  const disable = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError('Say why the radio goes off air');
      return;
    }
    setReasonError(null);
    if ((await action.run(() => api.post('/station/v1/admin/radio/disable', { reason: reason.trim() }))) !== null) {
      setReason('');
      onChange();
    }
  };

  return (
    <section className="card" aria-labelledby="switch-title">
      <h2 id="switch-title">Radio</h2>
      <Alert>{error}</Alert>
      {status && (
        <p data-testid="radio-state">
          The radio is <strong>{enabled ? 'on air' : 'off air'}</strong>
          {status.radio_changed_at ? ` since ${when(status.radio_changed_at)}` : ''}
          {!enabled && status.disabled_reason ? ` (reason: ${status.disabled_reason})` : ''}
        </p>
      )}
      {status && !enabled && (
        <button type="button" className="primary" onClick={() => void enable()} disabled={action.busy}>
          Enable radio
        </button>
      )}
      {status && enabled && (
        <form onSubmit={disable} aria-label="Disable the radio" noValidate>
          <Field label="Reason for going off air" error={reasonError} hint="Kept with the configuration and sent with the station.radio.disabled event">
            {(id, describedBy) => (
              <input
                id={id}
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                aria-describedby={describedBy}
                aria-invalid={!!reasonError}
              />
            )}
          </Field>
          <button type="submit" className="danger" disabled={action.busy}>
            Disable radio
          </button>
          <p className="muted">The current track plays to its end first.</p>
        </form>
      )}
      <Alert>{action.error}</Alert>
    </section>
  );
}

function ConfigForm() {
  const loaded = useLoad(() => api.get<StationConfig>('/station/v1/admin/config'), []);
  const [draft, setDraft] = useState<StationConfig | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  useEffect(() => {
    if (loaded.data) setDraft(loaded.data);
  }, [loaded.data]);

  if (!draft)
    return (
      <section className="card">
        <Alert>{loaded.error}</Alert>
        <p className="muted">Loading the configuration…</p>
      </section>
    );
  const problems = configProblems(draft);
  const invalid = Object.keys(problems).length > 0;
  const set = <K extends keyof StationConfig>(key: K, value: StationConfig[K]) => {
    setDraft({ ...draft, [key]: value });
    setSaved(null);
  };
  const num = (key: keyof StationConfig) => (e: React.ChangeEvent<HTMLInputElement>) =>
    set(key, (e.target.value === '' ? Number.NaN : Number(e.target.value)) as never);
  const shown = (key: keyof StationConfig) => problems[key] ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (invalid) return;
    // radio_enabled is switched with enable/disable, not here.
    const { radio_enabled: _ignored, ...patch } = draft;
    const answer = await action.run(() => api.patch<StationConfig>('/station/v1/admin/config', patch));
    if (answer) {
      setDraft(answer);
      setSaved('Saved. Changes apply on the next scheduler cycle.');
    }
  };

  return (
    <section className="card" aria-labelledby="config-title">
      <h2 id="config-title">Configuration</h2>
      <form onSubmit={submit} aria-label="Station configuration" noValidate>
        <div className="form-grid">
          <Field label="Generation mode" error={shown('generation_mode')}>
            {(id, d) => (
              <select
                id={id}
                value={draft.generation_mode}
                onChange={(e) => set('generation_mode', e.target.value as StationConfig['generation_mode'])}
                aria-describedby={d}
                aria-invalid={!!shown('generation_mode')}
              >
                <option value="hybrid">hybrid</option>
                <option value="catalog_only">catalog_only</option>
                <option value="ai_only">ai_only</option>
              </select>
            )}
          </Field>
          <Field label="Catalog ratio" error={shown('catalog_ratio')} hint="0.0 to 1.0">
            {(id, d) => (
              <input
                id={id}
                type="number"
                step="0.05"
                min={0}
                max={1}
                value={Number.isNaN(draft.catalog_ratio) ? '' : draft.catalog_ratio}
                onChange={num('catalog_ratio')}
                aria-describedby={d}
                aria-invalid={!!shown('catalog_ratio')}
              />
            )}
          </Field>
          <Field label="AI generation ratio" error={shown('ai_generation_ratio')} hint="Catalog + AI must be 1.0">
            {(id, d) => (
              <input
                id={id}
                type="number"
                step="0.05"
                min={0}
                max={1}
                value={Number.isNaN(draft.ai_generation_ratio) ? '' : draft.ai_generation_ratio}
                onChange={num('ai_generation_ratio')}
                aria-describedby={d}
                aria-invalid={!!shown('ai_generation_ratio')}
              />
            )}
          </Field>
          <Field label="Fallback mode" hint="Used while the ML service is down">
            {(id, d) => (
              <select
                id={id}
                value={draft.fallback_mode}
                onChange={(e) => set('fallback_mode', e.target.value as StationConfig['fallback_mode'])}
                aria-describedby={d}
              >
                <option value="catalog_only">catalog_only</option>
                <option value="hybrid">hybrid (reuse eligible AI tracks)</option>
              </select>
            )}
          </Field>
          <Field label="Stream quality">
            {(id) => (
              <select id={id} value={draft.stream_quality} onChange={(e) => set('stream_quality', e.target.value as StationConfig['stream_quality'])}>
                <option value="128kbps">128kbps</option>
                <option value="192kbps">192kbps</option>
                <option value="320kbps">320kbps</option>
              </select>
            )}
          </Field>
          <Field label="Max AI track length (s)" error={shown('max_track_length_sec')} hint="10 to 900">
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={10}
                max={900}
                value={Number.isNaN(draft.max_track_length_sec) ? '' : draft.max_track_length_sec}
                onChange={num('max_track_length_sec')}
                aria-describedby={d}
                aria-invalid={!!shown('max_track_length_sec')}
              />
            )}
          </Field>
          <Field label="Generation lead time (s)" error={shown('generation_lead_time')} hint="10 to 3600">
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={10}
                max={3600}
                value={Number.isNaN(draft.generation_lead_time) ? '' : draft.generation_lead_time}
                onChange={num('generation_lead_time')}
                aria-describedby={d}
                aria-invalid={!!shown('generation_lead_time')}
              />
            )}
          </Field>
          <Field label="Crossfade (s)" error={shown('crossfade_sec')} hint="0 to 10">
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={0}
                max={10}
                value={Number.isNaN(draft.crossfade_sec) ? '' : draft.crossfade_sec}
                onChange={num('crossfade_sec')}
                aria-describedby={d}
                aria-invalid={!!shown('crossfade_sec')}
              />
            )}
          </Field>
          <Field label="Report threshold" error={shown('report_threshold')} hint="Listeners whose reports withhold an AI track">
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={1}
                max={1000}
                value={Number.isNaN(draft.report_threshold) ? '' : draft.report_threshold}
                onChange={num('report_threshold')}
                aria-describedby={d}
                aria-invalid={!!shown('report_threshold')}
              />
            )}
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.lyrics_generation} onChange={(e) => set('lyrics_generation', e.target.checked)} /> Generate lyrics for AI tracks
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.explicit_allowed} onChange={(e) => set('explicit_allowed', e.target.checked)} /> Explicit lyrics allowed
        </label>
        {attempted && invalid && <Alert>Fix the fields marked above; nothing was sent.</Alert>}
        <Alert>{action.error && `The server refused the configuration: ${action.error}`}</Alert>
        <Alert tone="ok">{saved}</Alert>
        <div className="row">
          <button type="submit" className="primary" disabled={action.busy}>
            Save configuration
          </button>
          <button type="button" onClick={() => loaded.data && setDraft(loaded.data)}>
            Reset
          </button>
        </div>
      </form>
    </section>
  );
}
