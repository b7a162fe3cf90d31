/**
 * Generation: the queue (GET /generate/queue), "generate now" with live progress from the
 * generation-progress channel, and the result to listen to once complete.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { describeLink, useChannel } from '../shared/live';
import { Alert, Field, useAction, useInterval, useLoad, when } from '../shared/ui';
import { api, session } from './session';
import type { Generation, GenerationProgressMessage } from './types';

interface QueueView {
  data: Array<{ generation_id: string; status: string; position: number; progress_pct: number; estimated_wait_seconds: number; created_at: string }>;
  pending: number;
  in_progress: number;
  max_concurrent: number;
  engine: { kind: string; status: string };
  gpu_available: boolean;
  cpu_load_pct: number;
}

export function GenerationSection() {
  const queue = useLoad(() => api.get<QueueView>('/station/v1/generate/queue'), []);
  useInterval(queue.reload, 3000);
  const [progress, setProgress] = useState<Record<string, GenerationProgressMessage>>({});
  const link = useChannel<GenerationProgressMessage>('generation-progress', session, (m) => {
    if (m.event === 'generation_progress') setProgress((p) => ({ ...p, [m.generation_id]: m }));
  });
  const q = queue.data;
  return (
    <div className="stack">
      <GenerateNow progress={progress} />
      <section className="card" aria-labelledby="queue-title">
        <h2 id="queue-title">Queue</h2>
        <p className="status-line">{describeLink(link, 'Live progress')}</p>
        <Alert>{queue.error}</Alert>
        {q && (
          <p className="muted">
            {q.pending} pending · {q.in_progress} in progress (at most {q.max_concurrent}) · engine {q.engine.kind} {q.engine.status} · CPU {q.cpu_load_pct}%
            {q.gpu_available ? '' : ' · no GPU'}
          </p>
        )}
        {q && q.data.length === 0 ? (
          <p className="muted">Nothing in the queue.</p>
        ) : (
          <ol className="plain-list">
            {(q?.data ?? []).map((g) => {
              const pct = progress[g.generation_id]?.progress_pct ?? g.progress_pct;
              return (
                <li key={g.generation_id}>
                  <span>
                    {g.status} · queued {when(g.created_at)} · wait ~{g.estimated_wait_seconds} s
                  </span>
                  <progress max={100} value={pct} aria-label={`Generation ${g.position} progress`} />
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </div>
  );
}

function GenerateNow({ progress }: { progress: Record<string, GenerationProgressMessage> }) {
  const [duration, setDuration] = useState(30);
  const [lyrics, setLyrics] = useState(false);
  const [seed, setSeed] = useState('');
  const [generation, setGeneration] = useState<Generation | null>(null);
  const action = useAction();
  const durationError = Number.isInteger(duration) && duration >= 10 && duration <= 900 ? null : 'A whole number from 10 to 900';

  const poll = useCallback(() => {
    if (!generation || ['complete', 'failed', 'cancelled'].includes(generation.status)) return;
    api
      .get<Generation>(`/station/v1/generate/track/${encodeURIComponent(generation.generation_id)}`)
      .then(setGeneration)
      .catch(() => undefined);
  }, [generation]);
  useInterval(poll, generation ? 2000 : null);
  const live = generation ? progress[generation.generation_id] : undefined;
  useEffect(() => {
    // The channel says 100: read the result at once rather than at the next poll.
    if (live?.progress_pct === 100) poll();
  }, [live?.progress_pct, poll]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (durationError) return;
    const created = await action.run(() =>
      api.post<Generation>('/station/v1/generate/track', { max_duration_sec: duration, include_lyrics: lyrics, seed: seed === '' ? null : Number(seed) }),
    );
    if (created) setGeneration(created);
  };
  const pct = generation?.status === 'complete' ? 100 : Math.max(live?.progress_pct ?? 0, generation?.progress_pct ?? 0);
  return (
    <section className="card" aria-labelledby="gen-title">
      <h2 id="gen-title">Generate now</h2>
      <form onSubmit={submit} aria-label="Generate a track" noValidate>
        <div className="form-grid">
          <Field label="Length (s)" error={durationError}>
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={10}
                max={900}
                value={Number.isNaN(duration) ? '' : duration}
                onChange={(e) => setDuration(Number(e.target.value))}
                aria-describedby={d}
                aria-invalid={!!durationError}
              />
            )}
          </Field>
          <Field label="Seed (optional)" hint="Same seed, same track">
            {(id, d) => <input id={id} inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value.replace(/\D/g, ''))} aria-describedby={d} />}
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" checked={lyrics} onChange={(e) => setLyrics(e.target.checked)} /> With lyrics
        </label>
        <Alert>{action.error}</Alert>
        <button type="submit" className="primary" disabled={action.busy}>
          Generate now
        </button>
      </form>
      {generation && (
        <div className="result" role="status" aria-live="polite">
          <p>
            Generation <code>{generation.generation_id}</code>: <strong data-testid="generation-status">{generation.status.replace('_', ' ')}</strong>
            {live && generation.status !== 'complete' ? ` · about ${live.eta_seconds} s left` : ''}
          </p>
          <progress max={100} value={pct} aria-label="Generation progress" />
          {generation.error && <Alert>{`${generation.error.code}: ${generation.error.message}`}</Alert>}
          {generation.status === 'complete' && generation.stream_url && (
            <>
              <p>
                {generation.title ?? 'Result'}
                {generation.duration_ms ? ` · generated in ${(generation.duration_ms / 1000).toFixed(1)} s` : ''}
              </p>
              <audio controls src={generation.stream_url} aria-label={`Listen to ${generation.title ?? 'the generated track'}`} />
            </>
          )}
        </div>
      )}
    </section>
  );
}
