/**
 * Live status: GET /station/v1/admin/status every 5 s, the current track over the now-playing channel,
 * the listener count over the listeners channel, and charts: listeners over the last 24 hours (the
 * server's per-minute history, then the live counts), AI/catalog share of plays and generation success per radio
 * session (GET /registry/sessions), time per generation of the latest AI tracks.
 */
import { useCallback, useEffect, useState } from 'react';
import { type Page, query } from '../shared/api';
import { BarChart, LineChart } from '../shared/charts';
import { describeLink, useChannel } from '../shared/live';
import { Alert, clock, useInterval, useLoad } from '../shared/ui';
import { api, session } from './session';
import type { Generation, Permissions, RegistryRecord, SessionStats, StationStatus, TrainingJob } from './types';

interface Card {
  station_track_id: string;
  title: string;
  artist: string;
  is_ai_generated: boolean;
  duration_sec: number;
  started_at: string;
}

const DAY_MS = 24 * 3600 * 1000;

interface ListenerSample {
  at: string;
  listeners: number;
}

export function Overview({ permissions }: { permissions: Permissions }) {
  if (!permissions.can_toggle_radio) return <TrainingSummary />;
  return <StationOverview />;
}

function StationOverview() {
  const status = useLoad(() => api.get<StationStatus>('/station/v1/admin/status'), []);
  useInterval(status.reload, 5000);
  const [card, setCard] = useState<{ card: Card; offset: number } | null>(null);
  // The server's per-minute history (reloaded each minute), then the counts the channel brought since.
  const history = useLoad(() => api.get<{ data: ListenerSample[] }>('/station/v1/radio/listeners/history?hours=24'), []);
  useInterval(history.reload, 60_000);
  const [live, setLive] = useState<Array<[number, number]>>([]);
  const recorded: Array<[number, number]> = (history.data?.data ?? []).map((sample) => [Date.parse(sample.at), sample.listeners]);
  const lastRecorded = recorded.length ? recorded[recorded.length - 1][0] : 0;
  const samples = [...recorded, ...live.filter(([t]) => t > lastRecorded + 60_000)];
  const [now, setNow] = useState(Date.now());
  useInterval(
    useCallback(() => setNow(Date.now()), []),
    1000,
  );

  const nowLink = useChannel<{ event: string; data: Card; server_time_utc: string }>('now-playing', session, (m) => {
    if (m.event === 'now_playing') setCard({ card: m.data, offset: Date.parse(m.server_time_utc) - Date.now() });
  });
  const countLink = useChannel<{ event: string; count: number }>('listeners', session, (m) => {
    if (m.event !== 'listener_count') return;
    setLive((points) => [...points.filter(([t]) => t > Date.now() - DAY_MS), [Date.now(), m.count] as [number, number]].slice(-2000));
  });

  const s = status.data;
  const elapsed = card ? Math.min(card.card.duration_sec, Math.max(0, (now + card.offset - Date.parse(card.card.started_at)) / 1000)) : 0;
  return (
    <div className="stack">
      <Alert>{status.error}</Alert>
      <p className="status-line" role="status">
        {describeLink(nowLink, 'Live track') ?? describeLink(countLink, 'Listener count')}
      </p>
      {s && (
        <section className="card" aria-labelledby="status-title">
          <h2 id="status-title">Station status</h2>
          <dl className="facts" data-testid="status">
            <dt>Radio</dt>
            <dd>{s.radio_enabled ? 'On air' : `Off air${s.disabled_reason ? ` (${s.disabled_reason})` : ''}`}</dd>
            <dt>Listeners</dt>
            <dd>{samples.length ? samples[samples.length - 1][1] : s.listener_count}</dd>
            <dt>Mode</dt>
            <dd>
              {s.generation_mode}
              {s.fallback_active ? ' (fallback active)' : ''}
            </dd>
            <dt>Queue depth</dt>
            <dd>
              {s.queue_depth} tracks ahead · {s.generation_queue_depth} generations
            </dd>
            <dt>ML health</dt>
            <dd>{s.ml_service_health}</dd>
            <dt>Training</dt>
            <dd>{s.training_status}</dd>
            <dt>Models</dt>
            <dd>
              audio {s.model_version ?? 'none'} · lyrics {s.lyrics_model_version ?? 'none'}
            </dd>
            <dt>Safety</dt>
            <dd>
              {s.safety_status} ({s.safety_flags_24h} flags in 24 h)
            </dd>
            <dt>Uptime</dt>
            <dd>
              {Math.floor(s.uptime_seconds / 3600)} h {Math.floor((s.uptime_seconds % 3600) / 60)} min
            </dd>
          </dl>
        </section>
      )}
      <section className="card" aria-labelledby="current-title">
        <h2 id="current-title">On air</h2>
        {card ? (
          <>
            <p>
              <strong>{card.card.title}</strong> · {card.card.artist}{' '}
              {card.card.is_ai_generated ? <span className="badge badge-ai">AI-generated</span> : <span className="badge badge-catalog">Catalog</span>}
            </p>
            <progress max={Math.max(1, card.card.duration_sec)} value={elapsed} aria-label="Track progress" />
            <p className="muted">
              {clock(elapsed)} / {clock(card.card.duration_sec)}
            </p>
          </>
        ) : (
          <p className="muted">{s?.current_track ? `${s.current_track.title} (${s.current_track.progress_pct}%)` : 'Nothing on air.'}</p>
        )}
      </section>
      <div className="grid">
        <LineChart
          title="Listeners, last 24 hours"
          series={[{ name: 'listeners', points: samples.map(([t, c]) => [t, c]) }]}
          xLabel="time"
          yLabel="listeners"
          formatX={(t) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          formatY={(y) => y.toFixed(0)}
          empty="Counts arrive every few seconds while this page is open."
        />
        <SessionCharts />
        <GenerationTimes />
      </div>
    </div>
  );
}

function SessionCharts() {
  const sessions = useLoad(() => api.get<Page<SessionStats>>(`/station/v1/registry/sessions${query({ limit: 8 })}`), []);
  const data = sessions.data?.data ?? [];
  const label = (s: SessionStats) => (s.last_activity_at ? new Date(s.last_activity_at).toLocaleDateString() : s.session_id.slice(0, 10));
  const plays = data.reduce((a, s) => ({ ai: a.ai + s.ai_plays, all: a.all + s.total_plays }), { ai: 0, all: 0 });
  return (
    <>
      <BarChart
        title="AI / catalog share of plays"
        max={Math.max(1, plays.all)}
        bars={
          plays.all
            ? [
                { label: 'AI-generated', value: plays.ai, text: `${Math.round((plays.ai / plays.all) * 100)}%` },
                { label: 'Catalog', value: plays.all - plays.ai, text: `${Math.round(((plays.all - plays.ai) / plays.all) * 100)}%` },
              ]
            : []
        }
      />
      <BarChart
        title="Generation success rate by session"
        max={1}
        bars={data
          .filter((s) => s.generation_success_rate !== null)
          .map((s) => ({ label: label(s), value: s.generation_success_rate!, text: `${Math.round(s.generation_success_rate! * 100)}%` }))}
      />
    </>
  );
}

function GenerationTimes() {
  const [bars, setBars] = useState<Array<{ label: string; value: number; text: string }>>([]);
  useEffect(() => {
    let live = true;
    void (async () => {
      const tracks = await api.get<Page<RegistryRecord>>(`/station/v1/registry/tracks${query({ limit: 8 })}`).catch(() => null);
      if (!tracks) return;
      const generations = await Promise.all(
        tracks.data.map((t) => api.get<Generation>(`/station/v1/generate/track/${encodeURIComponent(t.generation_id)}`).catch(() => null)),
      );
      const timed = generations.flatMap((g, i) =>
        g?.duration_ms ? [{ label: tracks.data[i].title, value: g.duration_ms / 1000, text: `${(g.duration_ms / 1000).toFixed(1)} s` }] : [],
      );
      if (live) setBars(timed);
    })();
    return () => {
      live = false;
    };
  }, []);
  return <BarChart title="Time per generation (latest AI tracks)" bars={bars} />;
}

function TrainingSummary() {
  const jobs = useLoad(() => api.get<Page<TrainingJob>>(`/station/v1/training/jobs${query({ limit: 5 })}`), []);
  return (
    <section className="card" aria-labelledby="dev-title">
      <h2 id="dev-title">Training at a glance</h2>
      <p className="muted">Developer access: training, dataset and webhooks. The radio switch and station settings need an admin.</p>
      <Alert>{jobs.error}</Alert>
      <ul>
        {(jobs.data?.data ?? []).map((j) => (
          <li key={j.job_id}>
            {j.model_type} · {j.status} · epoch {j.current_epoch}/{j.total_epochs}
          </li>
        ))}
      </ul>
    </section>
  );
}
