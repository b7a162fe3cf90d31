/**
 * Sign up, log in (with the TOTP step the platform asks of staff accounts) and request a password reset: the
 * one sign-in card of the listener page, the artist studio and the developer portal. Each page passes its own
 * session's `api` and says what a new login does (keep it; the listener page also opens the role's area).
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { Api } from './api';
import type { SessionAnswer } from './platform-session';
import { CodeField, Alert, Field, NewPasswordField, useAction } from './ui';

export type SignInMode = 'signup' | 'login' | 'reset';

const LABELS: Record<SignInMode, string> = { signup: 'Sign up', login: 'Log in', reset: 'Forgot password' };

interface SignInCardProps<U> {
  api: Api;
  title: string;
  /** 1 where the card is the page's only content, 2 below a page heading. */
  headingLevel: 1 | 2;
  intro: ReactNode;
  /** The tabs in order; the first is open at first. */
  modes: SignInMode[];
  /** The demo accounts the login form offers (on a demo station); every one when not given. */
  demoRoles?: string[];
  onSignedIn: (answer: SessionAnswer<U>) => void;
}

export function SignInCard<U>({ api, title, headingLevel, intro, modes, demoRoles, onSignedIn }: SignInCardProps<U>) {
  const [mode, setMode] = useState<SignInMode>(modes[0]!);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="card auth" aria-labelledby="auth-title">
      <Heading id="auth-title">{title}</Heading>
      <p className="muted">{intro}</p>
      <div className="row tabs" role="group" aria-label="Account">
        {modes.map((value) => (
          <button key={value} type="button" aria-pressed={mode === value} onClick={() => setMode(value)}>
            {LABELS[value]}
          </button>
        ))}
      </div>
      {mode === 'signup' && <SignupForm api={api} onSignedIn={onSignedIn} />}
      {mode === 'login' && <LoginForm api={api} onSignedIn={onSignedIn} demoRoles={demoRoles} />}
      {mode === 'reset' && <ResetRequestForm api={api} />}
    </section>
  );
}

interface FormProps<U> {
  api: Api;
  onSignedIn: (answer: SessionAnswer<U>) => void;
}

function SignupForm<U>({ api, onSignedIn }: FormProps<U>) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await run(() => api.post<SessionAnswer<U>>('/v1/auth/signup', { email, password, display_name: name }, { anonymous: true }));
    if (answer) onSignedIn(answer);
  };
  return (
    <form onSubmit={submit} aria-label="Sign up">
      <Field label="Display name">
        {(id) => <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />}
      </Field>
      <Field label="E-mail">
        {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
      </Field>
      <NewPasswordField value={password} onChange={setPassword} />
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

function LoginForm<U>({ api, onSignedIn, demoRoles }: FormProps<U> & { demoRoles?: string[] }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) {
      const answer = await run(() => api.post<SessionAnswer<U>>('/v1/auth/2fa/verify', { temp_token: pending, code }, { anonymous: true }));
      if (answer) onSignedIn(answer);
      return;
    }
    const answer = await run(() => api.post<SessionAnswer<U> | TwoFactor>('/v1/auth/login', { email, password }, { anonymous: true }));
    if (!answer) return;
    if ('requires_2fa' in answer) setPending(answer.temp_token);
    else onSignedIn(answer);
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
        <CodeField label="Authenticator code" hint="The 6-digit code of your authenticator app" value={code} onChange={setCode} />
      )}
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        {pending ? 'Verify' : 'Log in'}
      </button>
      {!pending && <DemoAccounts api={api} roles={demoRoles} onPick={(account) => (setEmail(account.email), setPassword(account.password))} />}
    </form>
  );
}

interface DemoAccount {
  role: string;
  email: string;
  password: string;
}

/** On a demo station (GET /v1/demo/accounts answers; elsewhere 404): "try the demo as ..." fills the form. */
function DemoAccounts({ api, roles, onPick }: { api: Api; roles?: string[]; onPick: (account: DemoAccount) => void }) {
  const [accounts, setAccounts] = useState<DemoAccount[]>([]);
  const wanted = roles?.join(',');
  useEffect(() => {
    const only = wanted?.split(',');
    api.get<DemoAccount[]>('/v1/demo/accounts', { anonymous: true }).then(
      (all) => setAccounts(only ? all.filter((account) => only.includes(account.role)) : all),
      () => setAccounts([]),
    );
  }, [api, wanted]);
  if (accounts.length === 0) return null;
  return (
    <p className="muted">
      Try the demo as{' '}
      {accounts.map((account, i) => (
        <span key={account.role}>
          {i > 0 && ', '}
          <button type="button" className="link" onClick={() => onPick(account)}>
            {account.role}
          </button>
        </span>
      ))}
    </p>
  );
}

function ResetRequestForm({ api }: { api: Api }) {
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
