/** Staff login: work e-mail, password and the 6-digit TOTP code (POST /api/auth/admin/login). */
import { useState, type FormEvent } from 'react';
import { CodeField, Alert, Field, useAction } from '../shared/ui';
import { EnrolForm } from './Enrol';
import { api, rememberUser, session, toLogin, type LoginAnswer } from './session';

export function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  const [enrolling, setEnrolling] = useState(false);
  const [enrolled, setEnrolled] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await run(() => api.post<LoginAnswer>('/api/auth/admin/login', { email, password, totp_code: code }, { anonymous: true }));
    if (!answer) return;
    rememberUser(answer.user);
    session.set(toLogin(answer, answer.user));
  };

  if (enrolling) {
    return (
      <EnrolForm
        onDone={() => {
          setEnrolling(false);
          setEnrolled(true);
        }}
      />
    );
  }

  return (
    <section className="card login" aria-labelledby="login-title">
      <h1 id="login-title">Station admin</h1>
      <p className="muted">Staff only: administrators and developers, with their authenticator app.</p>
      <form onSubmit={submit} aria-label="Staff login">
        <Field label="Work e-mail">
          {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" />}
        </Field>
        <Field label="Password">
          {(id) => <input id={id} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
        </Field>
        <CodeField label="Authenticator code" hint="6 digits from your authenticator app" value={code} onChange={setCode} />
        <Alert>{error}</Alert>
        <button className="primary" type="submit" disabled={busy}>
          Log in
        </button>
      </form>
      {enrolled ? <p role="status">If you confirmed a code, your authenticator is set up: log in with it.</p> : null}
      <button type="button" className="link" onClick={() => setEnrolling(true)}>
        New staff? Set up your authenticator
      </button>
    </section>
  );
}
