/** The safety filter on a test payload (POST /admin/safety/test): lyrics text and/or a catalog track's audio. */
import { useState, type FormEvent } from 'react';
import { Alert, Field, useAction } from '../shared/ui';
import { api } from './session';

interface Result {
  safety_score: number;
  flagged_categories: string[];
  explicit_detected: boolean;
  playable: boolean;
  reference_version: string;
}

export function SafetyTestSection() {
  const [lyrics, setLyrics] = useState('');
  const [trackId, setTrackId] = useState('');
  const [explicit, setExplicit] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const action = useAction();
  const empty = !lyrics.trim() && !trackId.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (empty) return;
    const body: Record<string, unknown> = { explicit_allowed: explicit };
    if (lyrics.trim()) body.lyrics = lyrics;
    if (trackId.trim()) body.audio_track_id = trackId.trim();
    const answer = await action.run(() => api.post<Result>('/station/v1/admin/safety/test', body));
    if (answer) setResult(answer);
  };
  return (
    <section className="card" aria-labelledby="st-title">
      <h2 id="st-title">Test the safety filter</h2>
      <form onSubmit={submit} aria-label="Safety test" noValidate>
        <Field label="Lyrics">{(id) => <textarea id={id} value={lyrics} maxLength={20000} onChange={(e) => setLyrics(e.target.value)} />}</Field>
        <Field label="Catalog track id (audio check)" hint="Checks that track's stored audio features against the catalog">
          {(id, d) => <input id={id} value={trackId} onChange={(e) => setTrackId(e.target.value)} aria-describedby={d} />}
        </Field>
        <label className="check">
          <input type="checkbox" checked={explicit} onChange={(e) => setExplicit(e.target.checked)} /> Explicit allowed
        </label>
        {empty && <p className="muted">Give lyrics, a track id, or both.</p>}
        <Alert>{action.error}</Alert>
        <button type="submit" className="primary" disabled={action.busy || empty}>
          Run the safety filter
        </button>
      </form>
      {result && (
        <dl className="facts" role="status">
          <dt>Safety score</dt>
          <dd>{result.safety_score.toFixed(2)} (at least 0.80 to play)</dd>
          <dt>Playable</dt>
          <dd>{result.playable ? 'yes' : 'no'}</dd>
          <dt>Flagged</dt>
          <dd>{result.flagged_categories.join(', ') || 'nothing'}</dd>
          <dt>Explicit</dt>
          <dd>{result.explicit_detected ? 'detected' : 'none'}</dd>
          <dt>Reference</dt>
          <dd>{result.reference_version}</dd>
        </dl>
      )}
    </section>
  );
}
