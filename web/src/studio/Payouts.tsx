/**
 * Payouts: the payout account's onboarding (POST /api/connect/onboard: a link to the processor's page, Stripe
 * Connect Express or the sandbox's) and the payout history (GET /v1/payouts): each sale's 85/15 split.
 */
import { useState } from 'react';
import { query, type Page } from '../shared/api';
import { api } from '../shared/platform-session';
import { Alert, useAction, useLoad, when } from '../shared/ui';
import { money } from './Releases';
import type { Artist, OnboardingLink, Payout } from './types';

export function PayoutsSection({ artist }: { artist: Artist }) {
  const [page, setPage] = useState(1);
  const payouts = useLoad(() => api.get<Page<Payout>>(`/v1/payouts${query({ page, limit: 20 })}`), [page, artist.id]);
  const [link, setLink] = useState<OnboardingLink | null>(null);
  const { busy, error, run } = useAction();
  const pages = payouts.data ? Math.max(1, Math.ceil(payouts.data.total / payouts.data.limit)) : 1;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="onboard-title">
        <h2 id="onboard-title">Payout account</h2>
        <p>To be paid for your sales, set up your payout account with the payment processor. You keep 85% of each sale.</p>
        <Alert>{error}</Alert>
        {link ? (
          <p>
            <a className="button primary" href={link.url} rel="noopener">
              Continue to {link.processor === 'stripe' ? 'Stripe' : 'the sandbox processor'}
            </a>{' '}
            {link.expires_at && <span className="muted">This link works until {when(link.expires_at)}.</span>}
          </p>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(() => api.post<OnboardingLink>('/api/connect/onboard', {})).then((answer) => answer && setLink(answer))}
          >
            Set up payouts
          </button>
        )}
      </section>
      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">Payout history</h2>
        <Alert>{payouts.error}</Alert>
        {payouts.data && payouts.data.total === 0 && <p className="muted">No sale yet. Sales made through the sandbox processor never count as payouts.</p>}
        {payouts.data && payouts.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Payouts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Sold</th>
                  <th scope="col">Sale</th>
                  <th scope="col">Platform fee</th>
                  <th scope="col">Your share</th>
                  <th scope="col">Split</th>
                </tr>
              </thead>
              <tbody>
                {payouts.data.data.map((p) => (
                  <tr key={p.order_id}>
                    <td>{when(p.sold_at)}</td>
                    <td>{money(p.amount_cents, p.currency)}</td>
                    <td>{money(p.platform_fee_cents, p.currency)}</td>
                    <td>{money(p.artist_share_cents, p.currency)}</td>
                    <td>{p.splits.map((s) => `${s.track_title}: ${s.songwriter_name ?? 'you'} ${money(s.amount_cents, p.currency)}`).join('; ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 && (
          <div className="row">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Newer
            </button>
            <span className="muted">
              Page {page} of {pages}
            </span>
            <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Older
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
