/**
 * The transparency panel of an AI track (GET /station/v1/transparency/{station_track_id}): what made it,
 * what influenced it, where its training data came from, and the policy. A modal dialog: focus moves in,
 * Escape closes it, focus returns to the badge.
 */
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../shared/api';
import { Alert, when } from '../shared/ui';
import { api } from './session';
import type { NowPlayingCard, TrackTransparency } from './types';

export function TransparencyPanel({ trackId, card, onClose }: { trackId: string | null; card: NowPlayingCard | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [record, setRecord] = useState<TrackTransparency | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!trackId) {
      if (element.open) element.close();
      return;
    }
    setRecord(null);
    setError(null);
    if (!element.open) element.showModal();
    let live = true;
    api
      .get<TrackTransparency>(`/station/v1/transparency/${encodeURIComponent(trackId)}`)
      .then((r) => live && setRecord(r))
      .catch((e: unknown) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [trackId]);

  // The card carries the essentials at once; the full record follows.
  const brief = card?.station_track_id === trackId ? card.transparency : undefined;
  return (
    <dialog ref={dialog} aria-labelledby="transparency-title" onClose={onClose} className="transparency">
      <div className="dialog-head">
        <h2 id="transparency-title">How this track was made</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p>
        <span className="badge badge-ai">AI-generated</span> {record?.title ?? card?.title ?? ''}
      </p>
      <p className="muted">This is an original track composed by the station's own AI models. No human artist performed it.</p>
      <Alert>{error}</Alert>
      {!record && !error && <p className="status-line">Loading the transparency record…</p>}
      {(record || brief) && (
        <dl className="facts">
          <dt>Model version</dt>
          <dd>{record?.model_version ?? brief?.model_version}</dd>
          <dt>Influencing genre</dt>
          <dd>{record?.influencing_genre ?? brief?.influencing_genre}</dd>
          <dt>Influencing mood</dt>
          <dd>{(record?.influencing_mood ?? brief?.influencing_mood ?? []).join(', ') || '—'}</dd>
          {record && (
            <>
              <dt>Influencing lifestyle</dt>
              <dd>{record.influencing_lifestyle ?? '—'}</dd>
            </>
          )}
          <dt>Lyrics</dt>
          <dd>{(record?.lyrics_source ?? brief?.lyrics_source) || 'Instrumental: no lyrics'}</dd>
          {record?.lyrics_model_version && (
            <>
              <dt>Lyrics model</dt>
              <dd>{record.lyrics_model_version}</dd>
            </>
          )}
          {record?.lyrics && (
            <>
              <dt>Words</dt>
              <dd lang={record.lyrics.language}>
                {record.lyrics.sections.map((section, index) => (
                  <p key={index} className="lyrics-section" style={{ whiteSpace: 'pre-line' }}>
                    <span className="visually-hidden">{section.name}: </span>
                    {section.text}
                  </p>
                ))}
              </dd>
            </>
          )}
          {record && (
            <>
              <dt>Generated</dt>
              <dd>{when(record.generated_at)}</dd>
              <dt>Training data</dt>
              <dd>{record.training_data_source}</dd>
              <dt>Third-party content</dt>
              <dd>{record.no_third_party_content ? 'None: trained only on platform-owned material' : 'May contain third-party material'}</dd>
              <dt>Dataset</dt>
              <dd>
                {record.training_dataset_summary.audio.items ?? '?'} audio items
                {record.training_dataset_summary.lyrics ? `, ${record.training_dataset_summary.lyrics.items ?? '?'} lyrics` : ''}
                {record.training_dataset_summary.audio.verified ? ' (verified against the catalog)' : ''}
                <br />
                <code>{record.training_dataset_summary.audio.dataset_hash}</code>
              </dd>
              <dt>Use</dt>
              <dd>{record.radio_only ? 'Radio only: never sold or licensed' : 'May be reused'}</dd>
            </>
          )}
        </dl>
      )}
      {record && record.influenced_by.length > 0 && (
        <>
          <h3>Influences from the platform catalog</h3>
          <ul className="influences">
            {record.influenced_by.map((i) => (
              <li key={i.track_id}>
                {i.title} by {i.artist} <span className="muted">({Math.round(i.similarity * 100)}% similar in style)</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {record && (
        <p>
          <a href={record.policy_url} target="_blank" rel="noopener noreferrer">
            Read the station's AI policy
          </a>
        </p>
      )}
    </dialog>
  );
}
