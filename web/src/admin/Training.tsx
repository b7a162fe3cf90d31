/**
 * Training: start a job on a dataset snapshot, follow it (the loss, and for lyrics the perplexity, drawn
 * from the job's loss curve and then live from the training-progress channel), pause, resume, cancel; the
 * model versions with their metrics and lineage, and deploy.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { LineChart } from '../shared/charts';
import { describeLink, useChannel } from '../shared/live';
import { Alert, Field, useAction, useInterval, useLoad, when } from '../shared/ui';
import { api, session } from './session';
import type { LossPoint, ModelVersion, Snapshot, TrainingEpochMessage, TrainingJob } from './types';

const ACTIVE = new Set(['queued', 'running', 'paused']);

export function TrainingSection({ canDeploy, canCancel }: { canDeploy: boolean; canCancel: boolean }) {
  const jobs = useLoad(() => api.get<Page<TrainingJob>>(`/station/v1/training/jobs${query({ limit: 20 })}`), []);
  useInterval(jobs.reload, 4000);
  const [selected, setSelected] = useState<string | null>(null);
  const [modelsTick, setModelsTick] = useState(0);
  const list = jobs.data?.data ?? [];
  const shown = selected ?? list.find((j) => ACTIVE.has(j.status))?.job_id ?? null;

  return (
    <div className="stack">
      <StartJob
        onStarted={(id) => {
          setSelected(id);
          jobs.reload();
        }}
      />
      {shown && (
        <JobDetail
          key={shown}
          jobId={shown}
          canCancel={canCancel}
          onChange={() => {
            jobs.reload();
            setModelsTick((t) => t + 1);
          }}
        />
      )}
      <section className="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Jobs</h2>
        <Alert>{jobs.error}</Alert>
        {list.length === 0 ? (
          <p className="muted">No training jobs yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Training jobs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Status</th>
                  <th scope="col">Epoch</th>
                  <th scope="col">Loss</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((j) => (
                  <tr key={j.job_id} aria-current={j.job_id === shown ? 'true' : undefined}>
                    <td>{j.model_type}</td>
                    <td>{j.status}</td>
                    <td>
                      {j.current_epoch}/{j.total_epochs}
                    </td>
                    <td>{j.current_loss?.toFixed(4) ?? '—'}</td>
                    <td>{when(j.created_at)}</td>
                    <td>
                      <button type="button" onClick={() => setSelected(j.job_id)} aria-label={`Show the ${j.model_type} job of ${when(j.created_at)}`}>
                        Show
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Models key={modelsTick} canDeploy={canDeploy} />
    </div>
  );
}

function StartJob({ onStarted }: { onStarted: (jobId: string) => void }) {
  const snapshots = useLoad(() => api.get<Page<Snapshot>>(`/station/v1/dataset/snapshots${query({ limit: 50 })}`), []);
  const [modelType, setModelType] = useState<TrainingJob['model_type']>('audio');
  const [snapshot, setSnapshot] = useState('');
  const [epochs, setEpochs] = useState(30);
  const [learningRate, setLearningRate] = useState(0.05);
  const [batchSize, setBatchSize] = useState(8);
  const action = useAction();
  const list = snapshots.data?.data ?? [];
  const chosen = snapshot || list[0]?.snapshot_id || '';
  const epochsError = Number.isInteger(epochs) && epochs >= 1 && epochs <= 500 ? null : 'A whole number from 1 to 500';
  const rateError = learningRate > 0 && learningRate <= 1 ? null : 'Above 0, at most 1';

  const takeSnapshot = async () => {
    const created = await action.run(() =>
      api.post<Snapshot>('/station/v1/dataset/snapshot', { name: `snapshot ${new Date().toISOString().slice(0, 16)}`, description: 'from the training form' }),
    );
    if (created) {
      setSnapshot(created.snapshot_id);
      snapshots.reload();
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || epochsError || rateError) return;
    const job = await action.run(() =>
      api.post<TrainingJob>('/station/v1/training/jobs', {
        model_type: modelType,
        dataset_snapshot_id: chosen,
        hyperparams: { epochs, learning_rate: learningRate, batch_size: batchSize },
      }),
    );
    if (job) onStarted(job.job_id);
  };

  return (
    <section className="card" aria-labelledby="start-title">
      <h2 id="start-title">Start a training job</h2>
      <form onSubmit={submit} aria-label="Start a training job" noValidate>
        <div className="form-grid">
          <Field label="Model type">
            {(id) => (
              <select id={id} value={modelType} onChange={(e) => setModelType(e.target.value as TrainingJob['model_type'])}>
                <option value="audio">audio</option>
                <option value="lyrics">lyrics</option>
                <option value="style_embedding">style_embedding</option>
              </select>
            )}
          </Field>
          <Field label="Dataset snapshot" error={list.length === 0 && !snapshots.loading ? 'No snapshot yet: take one first' : null}>
            {(id, d) => (
              <select id={id} value={chosen} onChange={(e) => setSnapshot(e.target.value)} aria-describedby={d}>
                {list.map((s) => (
                  <option key={s.snapshot_id} value={s.snapshot_id}>
                    {s.name} ({s.item_counts.audio} audio, {s.item_counts.lyrics} lyrics)
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Epochs" error={epochsError}>
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={1}
                max={500}
                value={Number.isNaN(epochs) ? '' : epochs}
                onChange={(e) => setEpochs(Number(e.target.value))}
                aria-describedby={d}
                aria-invalid={!!epochsError}
              />
            )}
          </Field>
          <Field label="Learning rate" error={rateError}>
            {(id, d) => (
              <input
                id={id}
                type="number"
                step="0.001"
                value={Number.isNaN(learningRate) ? '' : learningRate}
                onChange={(e) => setLearningRate(Number(e.target.value))}
                aria-describedby={d}
                aria-invalid={!!rateError}
              />
            )}
          </Field>
          <Field label="Batch size">
            {(id) => <input id={id} type="number" min={1} max={4096} value={batchSize} onChange={(e) => setBatchSize(Number(e.target.value))} />}
          </Field>
        </div>
        <Alert>{action.error}</Alert>
        <div className="row">
          <button type="submit" className="primary" disabled={action.busy || !chosen}>
            Start training
          </button>
          <button type="button" onClick={() => void takeSnapshot()} disabled={action.busy}>
            Take a dataset snapshot
          </button>
        </div>
      </form>
    </section>
  );
}

function JobDetail({ jobId, canCancel, onChange }: { jobId: string; canCancel: boolean; onChange: () => void }) {
  const [job, setJob] = useState<TrainingJob | null>(null);
  const [curve, setCurve] = useState<LossPoint[]>([]);
  const action = useAction();
  const load = useCallback(() => {
    api
      .get<TrainingJob>(`/station/v1/training/jobs/${encodeURIComponent(jobId)}`)
      .then((j) => {
        setJob(j);
        // The stored curve is the truth; live points past it stay until it catches up.
        setCurve((live) => mergeCurve(j.loss_curve ?? [], live));
      })
      .catch(() => undefined);
  }, [jobId]);
  useEffect(load, [load]);
  useInterval(load, job && ACTIVE.has(job.status) ? 3000 : null);

  const link = useChannel<TrainingEpochMessage>('training-progress', session, (m) => {
    if (m.event !== 'training_epoch' || m.job_id !== jobId) return;
    setCurve((c) => mergeCurve(c, [{ epoch: m.epoch, loss: m.loss, held_out_loss: null, perplexity: m.perplexity ?? null }]));
    // The epoch line moves with the channel too, not only at the next poll.
    setJob((j) =>
      j && m.epoch > j.current_epoch
        ? {
            ...j,
            current_epoch: m.epoch,
            current_loss: m.loss,
            perplexity: m.perplexity ?? j.perplexity,
            progress_pct: Math.floor((m.epoch / Math.max(1, j.total_epochs)) * 100),
          }
        : j,
    );
  });

  const control = async (what: 'pause' | 'resume' | 'cancel') => {
    const path = `/station/v1/training/jobs/${encodeURIComponent(jobId)}`;
    const done = await action.run(() => (what === 'cancel' ? api.delete(path) : api.post(`${path}/${what}`)));
    if (done !== null) {
      onChange();
      if (what === 'cancel') setJob((j) => (j ? { ...j, status: 'failed', error_message: 'cancelled and deleted' } : j));
      else load();
    }
  };

  if (!job) return <p className="status-line">Loading the job…</p>;
  const perplexity = curve.filter((p) => p.perplexity !== null).map((p) => [p.epoch, p.perplexity!] as [number, number]);
  return (
    <section className="card" aria-labelledby="job-title" data-job-id={jobId}>
      <h2 id="job-title">
        {job.model_type} job · <span data-testid="job-status">{job.status}</span>
        {job.pause_requested && job.status === 'running' ? ' (pausing at the next checkpoint)' : ''}
      </h2>
      <p className="status-line">{describeLink(link, 'Live epochs')}</p>
      <progress max={100} value={job.progress_pct} aria-label="Training progress" />
      <p className="muted">
        Epoch {job.current_epoch} of {job.total_epochs} · loss {job.current_loss?.toFixed(4) ?? '—'}
        {job.perplexity != null ? ` · perplexity ${job.perplexity.toFixed(2)}` : ''}
        {job.eta_seconds != null && ACTIVE.has(job.status) ? ` · about ${Math.ceil(job.eta_seconds / 60)} min left` : ''}
        {job.model_version_draft ? ` · model ${job.model_version_draft}` : ''}
      </p>
      {job.error_message && <Alert>{job.error_message}</Alert>}
      <div className="grid">
        <LineChart
          title="Loss"
          series={[
            { name: 'training loss', points: curve.map((p) => [p.epoch, p.loss]) },
            { name: 'held-out loss', tone: 'b', points: curve.filter((p) => p.held_out_loss !== null).map((p) => [p.epoch, p.held_out_loss!]) },
          ]}
          xLabel="epoch"
          yLabel="loss"
          formatX={(x) => x.toFixed(0)}
        />
        {perplexity.length > 0 && (
          <LineChart
            title="Perplexity"
            series={[{ name: 'perplexity', tone: 'c', points: perplexity }]}
            xLabel="epoch"
            yLabel="perplexity"
            formatX={(x) => x.toFixed(0)}
          />
        )}
      </div>
      <div className="row">
        {job.status === 'running' && !job.pause_requested && (
          <button type="button" onClick={() => void control('pause')} disabled={action.busy}>
            Pause
          </button>
        )}
        {job.status === 'paused' && (
          <button type="button" onClick={() => void control('resume')} disabled={action.busy}>
            Resume
          </button>
        )}
        {canCancel && ACTIVE.has(job.status) && (
          <button type="button" className="danger" onClick={() => void control('cancel')} disabled={action.busy}>
            Cancel job
          </button>
        )}
      </div>
      <Alert>{action.error}</Alert>
    </section>
  );
}

function mergeCurve(base: LossPoint[], extra: LossPoint[]): LossPoint[] {
  const byEpoch = new Map<number, LossPoint>();
  for (const p of extra) byEpoch.set(p.epoch, p);
  for (const p of base) byEpoch.set(p.epoch, p);
  return [...byEpoch.values()].sort((a, b) => a.epoch - b.epoch);
}

function metricText(metrics: Record<string, unknown>): string {
  return Object.entries(metrics)
    .filter(([, v]) => typeof v === 'number')
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${(v as number).toFixed(3)}`)
    .join(' · ');
}

function Models({ canDeploy }: { canDeploy: boolean }) {
  const models = useLoad(() => api.get<Page<ModelVersion>>(`/station/v1/training/models${query({ limit: 20 })}`), []);
  const action = useAction();
  const deploy = async (m: ModelVersion) => {
    if ((await action.run(() => api.post(`/station/v1/training/models/${encodeURIComponent(m.model_id)}/deploy`))) !== null) models.reload();
  };
  return (
    <section className="card" aria-labelledby="models-title">
      <h2 id="models-title">Model versions</h2>
      <Alert>{models.error ?? action.error}</Alert>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Model versions with metrics and lineage, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Metrics</th>
              <th scope="col">Lineage</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(models.data?.data ?? []).map((m) => (
              <tr key={m.model_id}>
                <td>
                  {m.version}
                  <br />
                  <span className="muted">{m.model_type}</span>
                </td>
                <td>{m.status}</td>
                <td>{metricText(m.metrics) || '—'}</td>
                <td className="muted">
                  {typeof m.lineage.snapshot_id === 'string' ? `snapshot ${m.lineage.snapshot_id.slice(0, 8)}` : 'seed'}
                  {typeof m.lineage.base_model_id === 'string' ? ` · from ${m.lineage.base_model_id.slice(0, 8)}` : ''}
                  <br />
                  <code>{m.dataset_hash.slice(0, 23)}…</code>
                </td>
                <td>
                  {canDeploy && m.status !== 'production' && (
                    <button type="button" onClick={() => void deploy(m)} disabled={action.busy}>
                      Deploy<span className="visually-hidden"> {m.version}</span>
                    </button>
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
