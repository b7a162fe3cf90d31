/**
 * The account's e-mail state on the player: a short "verified" line, or a notice that the address is not
 * verified yet with a button that mails a new link (POST /v1/auth/verify-email/resend, 3 an hour).
 */
import { useState } from 'react';
import { Alert, useAction } from '../shared/ui';
import { api } from './session';
import type { CurrentUser } from './types';

/** `me` is GET /v1/users/me, loaded by the page before it shows anything, so this notice never pushes the page down. */
export function EmailStatus({ me }: { me: CurrentUser }) {
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();

  if (me.email_verified) {
    return (
      <p className="muted email-status" data-testid="email-status">
        E-mail address {me.email} verified.
      </p>
    );
  }
  const resend = async () => {
    setSent(false);
    if ((await run(() => api.post('/v1/auth/verify-email/resend'))) !== null) setSent(true);
  };
  return (
    <section className="card email-status" aria-label="E-mail address" data-testid="email-status">
      <p>
        Your e-mail address <strong>{me.email}</strong> is not verified yet: open the link we mailed you (it works for 24 hours). You can listen meanwhile; some
        features need a verified address.
      </p>
      <Alert>{error}</Alert>
      <Alert tone="ok">{sent ? 'A new link is on its way.' : null}</Alert>
      <button type="button" onClick={() => void resend()} disabled={busy}>
        Send a new link
      </button>
    </section>
  );
}
