/**
 * Account settings: the profile (PATCH /v1/users/me), the e-mail address and its verification (the notice
 * with its resend button; PUT /v1/users/me/email to change it), the password (PUT /v1/users/me/password with
 * the current one, or else the reset link mailed to the address), two-factor enrolment (POST
 * /v1/users/me/totp, its QR code, then /confirm), and the apps the listener connected (GET and DELETE
 * /v1/users/me/apps).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../shared/api';
import { CodeField, Alert, Field, NewPasswordField, useAction, useLoad, when } from '../../shared/ui';
import { EmailStatus } from '../Account';
import type { ConnectedApp, Me, ProfileChange, TotpEnrolment } from '../api-types';
import { api, session } from '../session';
import { Loading, Page } from './Page';

export default function Settings() {
  const me = useLoad(() => api.get<Me>('/v1/users/me'), []);
  return (
    <Page title="Account" heading="Account settings">
      {!me.data ? (
        <Loading error={me.error} />
      ) : (
        <div className="stack">
          <Profile me={me.data} />
          <section className="card" aria-labelledby="email-title">
            <h3 id="email-title">E-mail address</h3>
            <EmailStatus key={me.data.email} me={me.data} />
            <ChangeEmail onChanged={me.reload} />
          </section>
          <Password email={me.data.email} />
          <TwoFactor />
          <ConnectedApps />
        </div>
      )}
    </Page>
  );
}

function Profile({ me }: { me: Me }) {
  const [name, setName] = useState(me.display_name);
  const [country, setCountry] = useState(me.country ?? '');
  const [birthYear, setBirthYear] = useState(me.birth_year?.toString() ?? '');
  const [historyPublic, setHistoryPublic] = useState(me.history_public);
  const [playlistsPublic, setPlaylistsPublic] = useState(me.playlists_public);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const change: ProfileChange = {
      display_name: name.trim(),
      country: country.trim() ? country.trim().toUpperCase() : null,
      birth_year: birthYear ? Number(birthYear) : null,
      history_public: historyPublic,
      playlists_public: playlistsPublic,
    };
    const next = await run(() => api.patch<Me>('/v1/users/me', change));
    if (!next) return;
    setSaved(true);
    // The header shows the name from the login: keep it in step.
    session.updateUser({ display_name: next.display_name });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="profile-title">
      <h3 id="profile-title">Profile</h3>
      <div className="form-grid">
        <Field label="Display name">
          {(id) => <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />}
        </Field>
        <Field label="Country" hint="Two letters, e.g. DE (optional)">
          {(id, describedBy) => (
            <input
              id={id}
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              maxLength={2}
              pattern="[A-Za-z]{2}"
              autoComplete="country"
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field label="Birth year" hint="Optional">
          {(id, describedBy) => (
            <input
              id={id}
              type="number"
              inputMode="numeric"
              min={1900}
              max={new Date().getFullYear()}
              value={birthYear}
              onChange={(e) => setBirthYear(e.target.value)}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={historyPublic} onChange={(e) => setHistoryPublic(e.target.checked)} /> Others may see my listening history
      </label>
      <label className="check">
        <input type="checkbox" checked={playlistsPublic} onChange={(e) => setPlaylistsPublic(e.target.checked)} /> Others may see my public playlists
      </label>
      <Alert>{error}</Alert>
      <Alert tone="ok">{saved ? 'Profile saved.' : null}</Alert>
      <button type="submit" className="primary" disabled={busy}>
        Save profile
      </button>
    </form>
  );
}

function ChangeEmail({ onChanged }: { onChanged: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if ((await run(() => api.put('/v1/users/me/email', { email, password }))) === null) return;
    setDone(`Address changed to ${email}: open the link we mailed there to verify it.`);
    setPassword('');
    onChanged();
  };
  return (
    <details className="change-email">
      <summary>Change the address</summary>
      <form onSubmit={submit} aria-label="Change e-mail address">
        <Field label="New e-mail address">
          {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
        </Field>
        <Field label="Your password">
          {(id) => <input id={id} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
        </Field>
        <Alert>{error}</Alert>
        <Alert tone="ok">{done}</Alert>
        <button type="submit" disabled={busy}>
          Change address
        </button>
      </form>
    </details>
  );
}

function Password({ email }: { email: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const [mailed, setMailed] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChanged(false);
    if ((await run(() => api.put('/v1/users/me/password', { current_password: current, new_password: next }))) === null) return;
    setChanged(true);
    setCurrent('');
    setNext('');
  };
  // Without the current password: the reset link, mailed to the address.
  const mail = async () => {
    setMailed(false);
    if ((await run(() => api.post('/v1/auth/reset-password', { email }, { anonymous: true }))) !== null) setMailed(true);
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="password-title">
      <h3 id="password-title">Password</h3>
      <div className="form-grid">
        <Field label="Current password">
          {(id) => <input id={id} type="password" required value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />}
        </Field>
        <NewPasswordField label="New password" value={next} onChange={setNext} />
      </div>
      <Alert>{error}</Alert>
      <Alert tone="ok">
        {changed ? 'Password changed. Your other sessions are logged out.' : mailed ? `A link to set a new password is on its way to ${email}.` : null}
      </Alert>
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Change password
        </button>
        <button type="button" className="link" onClick={() => void mail()} disabled={busy}>
          Forgot it? Mail me a link
        </button>
      </div>
    </form>
  );
}

function TwoFactor() {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [currentCode, setCurrentCode] = useState('');
  const [needsCurrent, setNeedsCurrent] = useState(false);
  const [code, setCode] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const { busy, error, run, setError } = useAction();

  useEffect(() => {
    if (!enrolment) return undefined;
    let live = true;
    // The QR code library loads only for this step.
    void import('qrcode').then((QRCode) => QRCode.toDataURL(enrolment.otpauth_url, { margin: 1, width: 200 })).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [enrolment]);

  const start = async () => {
    setConfirmed(false);
    setError(null);
    try {
      setEnrolment(await api.post<TotpEnrolment>('/v1/users/me/totp', needsCurrent ? { current_code: currentCode } : {}));
    } catch (e) {
      // A confirmed second factor is replaced only with a code from it.
      if (e instanceof ApiError && e.status === 403 && !needsCurrent) setNeedsCurrent(true);
      setError(errorText(e));
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => api.post('/v1/users/me/totp/confirm', { code }))) === null) return;
    setConfirmed(true);
    setEnrolment(null);
    setQr(null);
    setCode('');
  };
  return (
    <section className="card" aria-labelledby="totp-title">
      <h3 id="totp-title">Two-factor sign-in</h3>
      <p className="muted">An authenticator app (any TOTP app) gives a 6-digit code that protects your account beyond the password.</p>
      {!enrolment ? (
        <>
          {needsCurrent && (
            <CodeField
              label="Code from your current authenticator"
              hint="Your account already has one: a code from it lets you replace it"
              value={currentCode}
              onChange={setCurrentCode}
              required={false}
            />
          )}
          <button type="button" onClick={() => void start()} disabled={busy}>
            Set up an authenticator
          </button>
        </>
      ) : (
        <form onSubmit={confirm} aria-label="Confirm authenticator">
          <p>Scan this code with your authenticator app, or type the key by hand.</p>
          <div className="qr">
            {qr ? <img src={qr} width={200} height={200} alt="QR code for your authenticator app" /> : <span className="muted">Drawing the code…</span>}
          </div>
          <p>
            Key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <CodeField label="6-digit code from the app" value={code} onChange={setCode} />
          <button type="submit" className="primary" disabled={busy}>
            Turn on two-factor
          </button>
        </form>
      )}
      <Alert>{error}</Alert>
      <Alert tone="ok">{confirmed ? 'Two-factor sign-in is on.' : null}</Alert>
    </section>
  );
}

function ConnectedApps() {
  const apps = useLoad(() => api.get<{ data: ConnectedApp[] }>('/v1/users/me/apps?limit=100'), []);
  const { busy, error, run } = useAction();
  const revoke = async (app: ConnectedApp) => {
    if ((await run(() => api.delete(`/v1/users/me/apps/${encodeURIComponent(app.id)}`))) !== null) apps.reload();
  };
  return (
    <section className="card" aria-labelledby="apps-title">
      <h3 id="apps-title">Connected apps</h3>
      {!apps.data ? (
        <Loading error={apps.error} />
      ) : apps.data.data.length === 0 ? (
        <p className="muted">No app acts for you.</p>
      ) : (
        <ul className="rows">
          {apps.data.data.map((app) => (
            <li key={app.id} className="row-item">
              <span className="row-main">
                <strong>{app.name}</strong> <span className="muted">· since {when(app.authorized_at)}</span>
                <br />
                <span className="muted">{app.scopes.join(', ')}</span>
              </span>
              <button type="button" className="danger" onClick={() => void revoke(app)} disabled={busy}>
                Disconnect<span className="visually-hidden"> {app.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Alert>{error}</Alert>
    </section>
  );
}
