/**
 * Analytics: the artist's streams, audience (geography, devices), top tracks and revenue for a period
 * (GET /v1/artists/{slug}/analytics), drawn with the shared charts, and live counters from the real-time feed
 * (GET /v1/analytics/stream, Server-Sent Events): the artist's own plays as they happen. The feed needs the
 * analytics:read scope; an account without it gets the report refreshed every 30 s instead, and is told so.
 */
import { useCallback, useState } from 'react';
import { BarChart, LineChart } from '../shared/charts';
import { api, session } from '../shared/platform-session';
import { useEventStream, type SseFrame } from '../shared/sse';
import { query } from '../shared/api';
import { Alert, Field, useInterval, useLoad } from '../shared/ui';
import { money } from './Releases';
import type { Artist, ArtistReport } from './types';

const PERIODS: Array<[number, string]> = [
  [7, 'Last 7 days'],
  [30, 'Last 30 days'],
  [90, 'Last 90 days'],
];
const POLL_MS = 30_000;
const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const shortDay = (ms: number) => new Date(ms).toLocaleDateString([], { month: 'short', day: 'numeric' });

export function AnalyticsSection({ artist }: { artist: Artist }) {
  const [days, setDays] = useState(30);
  const report = useLoad(
    () =>
      api.get<ArtistReport>(
        `/v1/artists/${encodeURIComponent(artist.slug)}/analytics${query({ from: isoDay(Date.now() - (days - 1) * DAY_MS), granularity: 'day' })}`,
      ),
    [artist.slug, days],
  );
  const [livePlays, setLivePlays] = useState(0);
  const [platformToday, setPlatformToday] = useState<number | null>(null);
  const onFrame = useCallback(
    (frame: SseFrame) => {
      try {
        // snapshot: {counters}; play: {artist_id, ..., counters} (the day's counters after it).
        const data = JSON.parse(frame.data) as { artist_id?: string; counters?: { plays?: number } };
        if (data.counters?.plays !== undefined) setPlatformToday(data.counters.plays);
        if (frame.event === 'play') {
          if (data.artist_id === artist.id) {
            setLivePlays((n) => n + 1);
            report.reload();
          }
        }
      } catch {
        // a malformed frame is dropped; the next one will do
      }
    },
    [artist.id, report.reload],
  );
  const live = useEventStream('/v1/analytics/stream', session, onFrame);
  useInterval(report.reload, live === 'forbidden' ? POLL_MS : null);

  const data = report.data;
  return (
    <div className="stack">
      <div className="row toolbar">
        <Field label="Period">
          {(id) => (
            <select id={id} value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {PERIODS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" onClick={report.reload}>
          Refresh
        </button>
      </div>
      <section className="card live" aria-labelledby="live-title">
        <h2 id="live-title">Live</h2>
        {live === 'forbidden' ? (
          <p className="muted">
            The real-time feed needs the analytics:read scope, which your account does not hold: the figures below refresh every 30 seconds.
          </p>
        ) : (
          <dl className="figures">
            <div>
              <dt>Your plays since you opened this page</dt>
              <dd data-testid="live-plays">{livePlays}</dd>
            </div>
            <div>
              <dt>Plays on the platform today</dt>
              <dd>{platformToday ?? '—'}</dd>
            </div>
          </dl>
        )}
        <p className="status-line" role="status" aria-live="polite">
          {live === 'open' ? 'Connected to the real-time feed.' : live === 'forbidden' ? '' : 'Connecting to the real-time feed…'}
        </p>
      </section>
      <Alert>{report.error}</Alert>
      <section aria-labelledby="streams-title">
        <h2 id="streams-title">Streams</h2>
        <dl className="figures">
          <div>
            <dt>Streams</dt>
            <dd data-testid="streams-total">{data?.streams.total.streams ?? '—'}</dd>
          </div>
          <div>
            <dt>On demand</dt>
            <dd>{data?.streams.total.on_demand ?? '—'}</dd>
          </div>
          <div>
            <dt>On the radio</dt>
            <dd>{data?.streams.total.radio ?? '—'}</dd>
          </div>
          <div>
            <dt>Listeners</dt>
            <dd>{data?.streams.total.listeners ?? '—'}</dd>
          </div>
          <div>
            <dt>Followers</dt>
            <dd>{data?.artist.followers ?? '—'}</dd>
          </div>
        </dl>
        <LineChart
          title="Streams per day"
          xLabel="day (UTC)"
          yLabel="streams"
          formatX={shortDay}
          formatY={(y) => y.toFixed(0)}
          series={[
            { name: 'Streams', tone: 'a', points: (data?.streams.series ?? []).map((p) => [Date.parse(p.period_start), p.streams]) },
            { name: 'Listeners', tone: 'c', points: (data?.streams.series ?? []).map((p) => [Date.parse(p.period_start), p.listeners]) },
          ]}
        />
      </section>
      <div className="grid">
        <BarChart title="Top tracks" bars={(data?.top_tracks ?? []).map((t) => ({ label: t.title, value: t.streams }))} />
        <BarChart
          title="Audience by country"
          bars={(data?.audience.geography ?? []).map((g) => ({ label: g.country ?? 'Unknown', value: g.plays, text: `${g.plays} plays` }))}
        />
        <BarChart
          title="Devices"
          bars={(data?.audience.devices ?? []).map((d) => ({ label: d.device, value: d.share, text: `${Math.round(d.share * 100)}%` }))}
          max={1}
        />
      </div>
      <section aria-labelledby="revenue-title">
        <h2 id="revenue-title">Revenue</h2>
        {data && data.revenue.length === 0 && <p className="muted">No sale in this period.</p>}
        {data && data.revenue.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Revenue by currency</caption>
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col">Orders</th>
                  <th scope="col">Gross</th>
                  <th scope="col">Your share (85%)</th>
                </tr>
              </thead>
              <tbody>
                {data.revenue.map((r) => (
                  <tr key={r.currency}>
                    <td>{r.currency.toUpperCase()}</td>
                    <td>{r.orders}</td>
                    <td>{money(r.gross_cents, r.currency)}</td>
                    <td>{money(r.artist_share_cents, r.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
