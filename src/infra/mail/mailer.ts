/** Outgoing e-mail. Every message is kept in the database outbox (readable by admins), and SMTP sends it when configured. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
