/** Small pieces both pages use: time formats, status messages, labelled fields, the origin badge. */
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { errorText } from './api';

export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The time of day only, for today's events. */
export function timeOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'info' | 'ok' }) {
  if (!children) return null;
  return (
    <p className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** A polite live region that is always in the page (so screen readers hear its changes). */
export function Status({ children }: { children: ReactNode }) {
  return (
    <p className="status-line" role="status" aria-live="polite">
      {children}
    </p>
  );
}

export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | null;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A new password (sign-up, reset, change): at least 8 characters, as the platform requires. */
export function NewPasswordField({ label = 'Password', value, onChange }: { label?: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={label} hint="At least 8 characters">
      {(id, describedBy) => (
        <input
          id={id}
          type="password"
          required
          minLength={8}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="new-password"
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

/** A 6-digit authenticator (TOTP) code: digits only, offered to the password manager as a one-time code. */
export function CodeField({
  label,
  hint,
  value,
  onChange,
  required = true,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  return (
    <Field label={label} hint={hint}>
      {(id, describedBy) => (
        <input
          id={id}
          inputMode="numeric"
          pattern="[0-9]{6}"
          maxLength={6}
          required={required}
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
          autoComplete="one-time-code"
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

export function OriginBadge({ ai, onClick }: { ai: boolean; onClick?: () => void }) {
  if (!ai) return <span className="badge badge-catalog">Catalog</span>;
  if (!onClick) return <span className="badge badge-ai">AI-generated</span>;
  return (
    <button type="button" className="badge badge-ai badge-button" onClick={onClick} aria-haspopup="dialog">
      AI-generated <span className="visually-hidden">: show how this track was made</span>
    </button>
  );
}

/** Loads something on mount (and when `deps` change); `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load()
      .then((value) => {
        if (!live) return;
        setData(value);
        setError(null);
      })
      .catch((e: unknown) => live && setError(errorText(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Runs `tick` every `ms` while mounted. */
export function useInterval(tick: () => void, ms: number | null): void {
  useEffect(() => {
    if (ms === null) return undefined;
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [tick, ms]);
}

/** An action with a busy flag and its error: `run(fn)` returns fn's result or null when it failed. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(errorText(e));
      return null;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
