/**
 * Tracks: upload (POST /v1/tracks, multipart, with the upload's progress), what the server's probe found in the
 * file (duration, loudness, format) while the renditions are made, and each track's edit (PATCH /v1/tracks/{id})
 * and take-down (DELETE /v1/tracks/{id} with a reason).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../shared/platform-session';
import { Alert, Field, clock, useAction, useLoad } from '../shared/ui';
import { uploadErrorText, uploadTrack, type UploadProgress } from './upload';
import type { Artist, CatalogTrack, ManagedTrack, TrackPatch } from './types';

const POLL_MS = 1500;

export function TracksSection({ artist, reload }: { artist: Artist; reload: () => Promise<void> }) {
  const [uploads, setUploads] = useState<ManagedTrack[]>([]);
  const published = publishedTracks(artist);
  const track = (view: ManagedTrack) => setUploads((list) => [view, ...list.filter((t) => t.id !== view.id)]);
  return (
    <div className="stack">
      <UploadForm artist={artist} onAccepted={track} onPublished={() => void reload()} />
      {uploads.length > 0 && (
        <section aria-labelledby="uploads-title">
          <h2 id="uploads-title">This session's uploads</h2>
          <ul className="plain-list">
            {uploads.map((view) => (
              <li key={view.id}>
                <Findings view={view} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="tracks-title">
        <h2 id="tracks-title">Published tracks ({published.length})</h2>
        {published.length === 0 ? (
          <p className="muted">No published track yet: upload one above.</p>
        ) : (
          <ul className="plain-list">
            {published.map((t) => (
              <li key={t.id}>
                <TrackRow track={t} onChanged={() => void reload()} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The profile's published tracks: its releases' and the others, once each. */
export function publishedTracks(artist: Artist): CatalogTrack[] {
  const seen = new Set<string>();
  return [...artist.discography.flatMap((release) => release.tracks), ...artist.other_tracks].filter((t) => (seen.has(t.id) ? false : (seen.add(t.id), true)));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(bytes < 10_485_760 ? 1 : 0)} MB`;
}

function UploadForm({ artist, onAccepted, onPublished }: { artist: Artist; onAccepted: (view: ManagedTrack) => void; onPublished: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [genre, setGenre] = useState(artist.genre);
  const [album, setAlbum] = useState('');
  const [year, setYear] = useState('');
  const [explicit, setExplicit] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const form = new FormData();
    for (const [name, value] of Object.entries({ title, genre, album, release_year: year })) if (value.trim() !== '') form.append(name, value.trim());
    form.append('explicit', String(explicit));
    form.append('file', file, file.name);
    setBusy(true);
    setError(null);
    setNote(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      let view = await uploadTrack(form, setProgress);
      onAccepted(view);
      setNote(`“${view.title}” is uploaded; the studio is making its streaming versions.`);
      setFile(null);
      setTitle('');
      if (fileInput.current) fileInput.current.value = '';
      // The renditions are made in the background: follow the track until it is published (or failed).
      while (view.status === 'processing' && live.current) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        view = await api.get<ManagedTrack>(`/v1/tracks/${view.id}/upload`);
        onAccepted(view);
      }
      if (view.status === 'published') {
        setNote(`“${view.title}” is published.`);
        onPublished();
      } else if (view.status === 'failed') setError(`“${view.title}” could not be processed: ${view.failure ?? 'unknown reason'}`);
    } catch (e) {
      setError(uploadErrorText(e));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;
  return (
    <form className="card" onSubmit={submit} aria-label="Upload a track">
      <h2>Upload a track</h2>
      <Field label="Audio file" hint="MP3, WAV, FLAC or AIFF. Tags in the file fill the fields you leave empty.">
        {(id, describedBy) => (
          <input
            id={id}
            ref={fileInput}
            type="file"
            required
            accept="audio/mpeg,audio/wav,audio/x-wav,audio/flac,audio/x-flac,audio/aiff,audio/x-aiff,.mp3,.wav,.flac,.aif,.aiff,.aifc"
            aria-describedby={describedBy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      <div className="form-grid">
        <Field label="Title">{(id) => <input id={id} maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}</Field>
        <Field label="Genre">{(id) => <input id={id} maxLength={80} value={genre} onChange={(e) => setGenre(e.target.value)} />}</Field>
        <Field label="Album">{(id) => <input id={id} maxLength={200} value={album} onChange={(e) => setAlbum(e.target.value)} />}</Field>
        <Field label="Release year">
          {(id) => <input id={id} inputMode="numeric" pattern="[0-9]{4}" value={year} onChange={(e) => setYear(e.target.value)} />}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={explicit} onChange={(e) => setExplicit(e.target.checked)} /> Explicit lyrics
      </label>
      <div className="progress-line">
        {progress && (
          <>
            <progress max={100} value={percent} aria-label="Upload progress" />
            <span className="muted">
              {percent < 100
                ? `Uploading: ${percent}% (${megabytes(progress.loaded)} of ${megabytes(progress.total)})`
                : 'Uploaded: the server is checking the file…'}
            </span>
          </>
        )}
      </div>
      <Alert>{error}</Alert>
      <p className="status-line" role="status" aria-live="polite">
        {note}
      </p>
      <button className="primary" type="submit" disabled={busy || !file}>
        Upload
      </button>
    </form>
  );
}

/** What the server's probe found in an upload, and where its processing is. */
function Findings({ view }: { view: ManagedTrack }) {
  const master = view.master;
  const format = master
    ? [
        master.format.toUpperCase(),
        master.codec,
        `${(master.sample_rate / 1000).toFixed(1)} kHz`,
        master.channels === 1 ? 'mono' : master.channels === 2 ? 'stereo' : `${master.channels} channels`,
        master.bitrate_kbps ? `${master.bitrate_kbps} kbps` : null,
      ]
        .filter(Boolean)
        .join(' · ')
    : '—';
  return (
    <article className="track-row" aria-label={`Upload ${view.title}`}>
      <h3>
        {view.title} <span className={`status-badge status-${view.status}`}>{view.status}</span>
      </h3>
      <dl className="findings" data-testid="findings">
        <dt>Duration</dt>
        <dd>{clock(view.duration_sec)}</dd>
        <dt>Loudness</dt>
        <dd>{view.loudness_lufs === null ? 'measuring…' : `${view.loudness_lufs.toFixed(1)} LUFS`}</dd>
        <dt>Format</dt>
        <dd>{format}</dd>
        {master && (
          <>
            <dt>Size</dt>
            <dd>{megabytes(master.size_bytes)}</dd>
          </>
        )}
        <dt>Streaming versions</dt>
        <dd>{view.renditions.length ? view.renditions.map((r) => r.quality).join(', ') : view.status === 'processing' ? 'being made…' : 'none'}</dd>
      </dl>
      {view.failure && <Alert>{view.failure}</Alert>}
    </article>
  );
}

type Mode = 'view' | 'edit' | 'takedown';

function TrackRow({ track, onChanged }: { track: CatalogTrack; onChanged: () => void }) {
  const [mode, setMode] = useState<Mode>('view');
  return (
    <article className="track-row" aria-label={track.title}>
      <h3>{track.title}</h3>
      <p className="muted">
        {clock(track.duration)} · {track.genre} · {track.streams} streams{track.isrc ? ` · ISRC ${track.isrc}` : ''}
      </p>
      <div className="actions">
        <button type="button" aria-expanded={mode === 'edit'} onClick={() => setMode(mode === 'edit' ? 'view' : 'edit')}>
          Edit <span className="visually-hidden">{track.title}</span>
        </button>
        <button type="button" className="danger" aria-expanded={mode === 'takedown'} onClick={() => setMode(mode === 'takedown' ? 'view' : 'takedown')}>
          Take down <span className="visually-hidden">{track.title}</span>
        </button>
      </div>
      {mode === 'edit' && <EditTrack id={track.id} onDone={() => (setMode('view'), onChanged())} />}
      {mode === 'takedown' && <TakeDown track={track} onDone={() => (setMode('view'), onChanged())} />}
    </article>
  );
}

function EditTrack({ id, onDone }: { id: string; onDone: () => void }) {
  const { data, error: loadError } = useLoad(() => api.get<ManagedTrack>(`/v1/tracks/${id}/upload`), [id]);
  if (loadError) return <Alert>{loadError}</Alert>;
  if (!data) return <p className="status-line">Loading…</p>;
  return <EditForm view={data} onDone={onDone} />;
}

function EditForm({ view, onDone }: { view: ManagedTrack; onDone: () => void }) {
  const [title, setTitle] = useState(view.title);
  const [genre, setGenre] = useState(view.genre);
  const [album, setAlbum] = useState(view.album ?? '');
  const [isrc, setIsrc] = useState(view.isrc ?? '');
  const [explicit, setExplicit] = useState(view.explicit);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const patch: TrackPatch = { title, genre, album: album.trim() || null, isrc: isrc.trim() || null, explicit };
    if ((await run(() => api.patch(`/v1/tracks/${view.id}`, patch))) !== null) onDone();
  };
  return (
    <form onSubmit={submit} aria-label={`Edit ${view.title}`}>
      <div className="form-grid">
        <Field label="Title">{(id) => <input id={id} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}</Field>
        <Field label="Genre">{(id) => <input id={id} required maxLength={80} value={genre} onChange={(e) => setGenre(e.target.value)} />}</Field>
        <Field label="Album">{(id) => <input id={id} maxLength={200} value={album} onChange={(e) => setAlbum(e.target.value)} />}</Field>
        <Field label="ISRC" hint="e.g. USRC17607839">
          {(id, describedBy) => <input id={id} maxLength={15} value={isrc} onChange={(e) => setIsrc(e.target.value)} aria-describedby={describedBy} />}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={explicit} onChange={(e) => setExplicit(e.target.checked)} /> Explicit lyrics
      </label>
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Save changes
      </button>
    </form>
  );
}

function TakeDown({ track, onDone }: { track: CatalogTrack; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => api.call('DELETE', `/v1/tracks/${track.id}`, { reason }))) !== null) onDone();
  };
  return (
    <form onSubmit={submit} aria-label={`Take down ${track.title}`}>
      <p>The track leaves the catalog and the radio at once. Its play history stays.</p>
      <Field label="Reason">{(id) => <input id={id} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}</Field>
      <Alert>{error}</Alert>
      <button className="danger" type="submit" disabled={busy}>
        Take down for good
      </button>
    </form>
  );
}
