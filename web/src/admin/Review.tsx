/**
 * The safety review queue: AI tracks flagged by an admin or reported by listeners
 * (GET /registry/tracks?flag_for_review=true). Approve puts a track back on air and starts its report
 * count afresh; withhold takes it off air at once.
 */
import { type Page, query } from '../shared/api';
import { Alert, useInterval, useLoad } from '../shared/ui';
import { RecordTable } from './Registry';
import { api } from './session';
import type { RegistryRecord } from './types';

export function ReviewSection() {
  const queue = useLoad(() => api.get<Page<RegistryRecord>>(`/station/v1/registry/tracks${query({ flag_for_review: true, limit: 100 })}`), []);
  useInterval(queue.reload, 10_000);
  return (
    <section className="card" aria-labelledby="review-title">
      <h2 id="review-title">
        Waiting for review <span className="muted">({queue.data?.total ?? 0})</span>
      </h2>
      <p className="muted">A listener report queues a track and it keeps playing until enough listeners report it; an admin flag withholds it at once.</p>
      <Alert>{queue.error}</Alert>
      <RecordTable records={queue.data?.data ?? []} onChange={queue.reload} review />
    </section>
  );
}
