/** Usage against the quotas (GET /v1/developer/usage): this month's requests of the account's keys, live and test. */
import { api } from '../shared/platform-session';
import { Alert, useLoad, when } from '../shared/ui';
import type { Usage } from './types';

export function UsageSection() {
  const usage = useLoad(() => api.get<Usage>('/v1/developer/usage'), []);
  const data = usage.data;
  return (
    <div className="stack">
      <Alert>{usage.error}</Alert>
      <p>
        Quotas are per account, not per key: your live keys share one monthly count, your test keys another, and each environment allows at most{' '}
        {data?.burst_per_minute ?? 500} requests a minute. Every answer to a key's request carries <code>X-RateLimit-Remaining</code>.
      </p>
      {data && (
        <>
          <div className="grid">
            <Meter label="Test keys (sandbox)" used={data.test.used} limit={data.test.limit} />
            <Meter label="Live keys (production)" used={data.live.used} limit={data.live.limit} />
          </div>
          <p className="muted">
            Month {data.month} (UTC); the counts start again {when(data.resets_at)}.
          </p>
        </>
      )}
      <div>
        <button type="button" onClick={usage.reload}>
          Refresh
        </button>
      </div>
    </div>
  );
}

function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const id = label.replace(/\W+/g, '-').toLowerCase();
  return (
    <section className="card meter" aria-labelledby={id}>
      <h2 id={id}>{label}</h2>
      <meter min={0} max={limit} value={used} low={limit * 0.8} high={limit * 0.95} optimum={0} aria-labelledby={id} />
      <p data-testid={`usage-${id}`}>
        {used.toLocaleString()} of {limit.toLocaleString()} requests ({((used / limit) * 100).toFixed(used && used / limit < 0.01 ? 3 : 1)}%)
      </p>
    </section>
  );
}
