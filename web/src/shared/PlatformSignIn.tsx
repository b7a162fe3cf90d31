/**
 * Sign up, log in (with the TOTP step of staff accounts) and request a password reset, for the pages beside the
 * listener's (the studio and the developer portal). The same calls as the listener page's forms
 * (web/src/listener/Auth.tsx), on the shared platform session; the reset and verification links of the mails
 * open on the listener page, which has their forms.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, session, toLogin, type SessionAnswer } from './platform-session';
import { Alert, Field, useAction } from './ui';

type Mode = 'login' | 'signup' | 'reset';

const MODES: Array<[Mode, string]> = [
  ['login', 'Log in'],
  ['signup', 'Sign up'],
  ['reset', 'Forgot password'],
];

export function PlatformSignIn({ title, intro, demoRole }: { title: string; intro: ReactNode; demoRole?: string }) {
  const [mode, setMode] = useState<Mode>('login');
  return (
    <section className="card auth" aria-labelledby="auth-title">
      <h1 id="auth-title">{title}</h1>
      <p className="muted">{intro}</p>
      <div className="row tabs" role="group" aria-label="Account">
        {MODES.map(([value, label]) => (
          <button key={value} type="button" aria-pressed={mode === value} onClick={() => setMode(value)}>
            {label}
          </button>
        ))}
      </div>
      {mode === 'signup' && <SignupForm />}
      {mode === 'login' && <LoginForm demoRole={demoRole} />}
      {mode === 'reset' && <ResetRequestForm />}
    </section>
  );
}

function SignupForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await run(() => api.post<SessionAnswer>('/v1/auth/signup', { email, password, display_name: name }, { anonymous: true }));
    if (answer) session.set(toLogin(answer));
  };
  return (
    <form onSubmit={submit} aria-label="Sign up">
      <Field label="Display name">
        {(id) => <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />}
      </Field>
      <Field label="E-mail">
        {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
      </Field>
      <Field label="Password" hint="At least 8 characters">
        {(id, describedBy) => (
          <input
            id={id}
            type="password"
            required
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Create account
      </button>
    </form>
  );
}

interface TwoFactor {
  requires_2fa: true;
  temp_token: string;
}

interface DemoAccount {
  role: string;
  email: string;
  password: string;
}

function LoginForm({ demoRole }: { demoRole?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [demo, setDemo] = useState<DemoAccount | null>(null);
  const { busy, error, run } = useAction();

  // On a demo station (GET /v1/demo/accounts answers; elsewhere 404) the area's demo account is offered.
  useEffect(() => {
    if (!demoRole) return;
    api.get<DemoAccount[]>('/v1/demo/accounts', { anonymous: true }).then(
      (accounts) => setDemo(accounts.find((account) => account.role === demoRole) ?? null),
      () => setDemo(null),
    );
  }, [demoRole]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) {
      const answer = await run(() => api.post<SessionAnswer>('/v1/auth/2fa/verify', { temp_token: pending, code }, { anonymous: true }));
      if (answer) session.set(toLogin(answer));
      return;
    }
    const answer = await run(() => api.post<SessionAnswer | TwoFactor>('/v1/auth/login', { email, password }, { anonymous: true }));
    if (!answer) return;
    if ('requires_2fa' in answer) setPending(answer.temp_token);
    else session.set(toLogin(answer));
  };
  return (
    <form onSubmit={submit} aria-label="Log in">
      {!pending ? (
        <>
          <Field label="E-mail">
            {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
          </Field>
          <Field label="Password">
            {(id) => <input id={id} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
          </Field>
        </>
      ) : (
        <Field label="Authenticator code" hint="The 6-digit code of your authenticator app">
          {(id, describedBy) => (
            <input
              id={id}
              inputMode="numeric"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              aria-describedby={describedBy}
            />
          )}
        </Field>
      )}
      <Alert>{error}</Alert>
      <div className="row">
        <button className="primary" type="submit" disabled={busy}>
          {pending ? 'Verify' : 'Log in'}
        </button>
        {!pending && demo && (
          <button type="button" onClick={() => (setEmail(demo.email), setPassword(demo.password))}>
            Try the demo as {demo.role}
          </button>
        )}
      </div>
    </form>
  );
}

function ResetRequestForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => api.post('/v1/auth/reset-password', { email }, { anonymous: true }))) !== null) setSent(true);
  };
  return (
    <form onSubmit={submit} aria-label="Reset password">
      <Field label="E-mail">
        {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
      </Field>
      <Alert>{error}</Alert>
      <Alert tone="ok">{sent ? 'If an account has this address, a reset link is on its way (valid for 1 hour).' : null}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Send reset link
      </button>
    </form>
  );
}

/** The address still unverified: what it blocks, and a new link on request. */
export function VerifyAddressNotice({ what }: { what: string }) {
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div className="card notice" role="region" aria-label="E-mail verification">
      <p>
        <strong>Confirm your e-mail address first.</strong> {what} needs a verified address: open the link we mailed you when you signed up.
      </p>
      <Alert>{error}</Alert>
      <Alert tone="ok">{sent ? 'A new link is on its way.' : null}</Alert>
      <button
        type="button"
        disabled={busy || sent}
        onClick={() => void run(() => api.post('/v1/auth/verify-email/resend', {})).then((answer) => setSent(answer !== null))}
      >
        Send a new link
      </button>
    </div>
  );
}
