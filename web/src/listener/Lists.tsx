/** Up next (the next 5 slots) and recently played (the last 20), each track marked catalog or AI. */
import { OriginBadge, clock, timeOf, when } from '../shared/ui';
import type { HistoryItem, QueueItem } from './types';

export function UpNext({ items }: { items: QueueItem[] | null }) {
  return (
    <section className="card" aria-labelledby="queue-title">
      <h2 id="queue-title">Up next</h2>
      {!items ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">Nothing planned yet.</p>
      ) : (
        <ol className="track-list">
          {items.map((item) => (
            <li key={item.position}>
              <OriginBadge ai={item.is_ai_generated} />
              <span className="track-name">
                {item.title ?? (item.is_ai_generated ? 'A new AI track' : 'A catalog track')}
                {item.artist && <span className="muted"> · {item.artist}</span>}
              </span>
              <span className="muted">
                {item.is_ai_generated && item.generation_status && item.generation_status !== 'complete'
                  ? `${item.generation_status.replace('_', ' ')} · `
                  : ''}
                {clock(item.duration_sec)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function RecentlyPlayed({ items, onTransparency }: { items: HistoryItem[] | null; onTransparency: (id: string) => void }) {
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Recently played</h2>
      {!items ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">Nothing played yet.</p>
      ) : (
        <ol className="track-list">
          {items.map((item) => (
            <li key={`${item.station_track_id}-${item.played_at}`}>
              <OriginBadge ai={item.is_ai_generated} onClick={item.is_ai_generated ? () => onTransparency(item.station_track_id) : undefined} />
              <span className="track-name">
                {item.title}
                <span className="muted"> · {item.artist}</span>
              </span>
              <span className="muted">
                <time dateTime={item.played_at} title={when(item.played_at)}>
                  {timeOf(item.played_at)}
                </time>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
