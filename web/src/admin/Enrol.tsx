/**
 * Two-factor enrolment before the first staff login (issue 17): a new staff member has a password but no
 * authenticator yet, so the staff login cannot let them in. They sign in with the password alone
 * (POST /v1/auth/login, a session without any TOTP-only scope), get a new secret (POST /v1/users/me/totp),
 * scan its otpauth:// QR code, and confirm a code (POST /v1/users/me/totp/confirm); then they log in at /admin.
 * The password-only token lives in this component's state only and is dropped when it ends.
 */
import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { CodeField, Alert, Field, useAction } from '../shared/ui';
import { api } from './session';

interface Enrolment {
  secret: string;
  otpauth_url: string;
}

interface PasswordSession {
  token: string;
  csrf: string;
}

type PlatformLogin = { token: string; csrf_token: string } | { requires_2fa: true };

export function EnrolForm({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [signedIn, setSignedIn] = useState<PasswordSession | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  useEffect(() => {
    if (!enrolment) return;
    let live = true;
    void QRCode.toDataURL(enrolment.otpauth_url, { margin: 1, width: 220 }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [enrolment]);

  const headers = (s: PasswordSession) => ({ authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf });

  const start = async (event: FormEvent) => {
    event.preventDefault();
    const result = await run(async () => {
      const login = await api.post<PlatformLogin>('/v1/auth/login', { email, password }, { anonymous: true });
      if ('requires_2fa' in login) throw new Error('This account already has a confirmed authenticator: log in with it.');
      const s = { token: login.token, csrf: login.csrf_token };
      const created = await api.post<Enrolment>('/v1/users/me/totp', {}, { anonymous: true, headers: headers(s) });
      return { s, created };
    });
    if (!result) return;
    setSignedIn(result.s);
    setEnrolment(result.created);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!signedIn) return;
    const done = await run(() => api.post<{ totp_enabled: true }>('/v1/users/me/totp/confirm', { code }, { anonymous: true, headers: headers(signedIn) }));
    if (done) onDone();
  };

  return (
    <section className="card login" aria-labelledby="enrol-title">
      <h1 id="enrol-title">Set up your authenticator</h1>
      {!enrolment ? (
        <form onSubmit={start} aria-label="Start two-factor enrolment">
          <p className="muted">For new staff: sign in with your password to get the QR code for your authenticator app.</p>
          <Field label="Work e-mail">
            {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" />}
          </Field>
          <Field label="Password">
            {(id) => <input id={id} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
          </Field>
          <Alert>{error}</Alert>
          <button className="primary" type="submit" disabled={busy}>
            Show QR code
          </button>
        </form>
      ) : (
        <form onSubmit={confirm} aria-label="Confirm two-factor enrolment">
          <p className="muted">Scan this code with your authenticator app (or type the key), then enter the 6 digits it shows.</p>
          {qr ? <img src={qr} width={220} height={220} alt="QR code of your authenticator secret" data-otpauth={enrolment.otpauth_url} /> : null}
          <p>
            Key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <CodeField label="Authenticator code" hint="6 digits from your authenticator app" value={code} onChange={setCode} />
          <Alert>{error}</Alert>
          <button className="primary" type="submit" disabled={busy}>
            Confirm
          </button>
        </form>
      )}
      <button type="button" className="link" onClick={onDone}>
        Back to login
      </button>
    </section>
  );
}
