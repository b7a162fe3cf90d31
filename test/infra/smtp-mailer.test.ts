/** The SMTP mailer against a real SMTP server in this process, recording every message in mail_outbox. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { mailOutbox } from '../../src/infra/db/schema/ops.js';
import { MailDeliveryError, SmtpMailer } from '../../src/infra/mail/smtp-mailer.js';
import { type TestDatabase, databaseBackends } from './database.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const pglite = databaseBackends[0];

describe('SmtpMailer', () => {
  let testDb: TestDatabase;
  let server: SMTPServer;
  let smtpUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    testDb = await pglite.open();
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@refused.example')) {
          callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await testDb?.dispose();
  });
  beforeEach(async () => {
    received.length = 0;
    await testDb.database.db.delete(mailOutbox);
  });

  it('delivers the message to the SMTP server and records it as sent', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
    const mailer = new SmtpMailer({ db: testDb.database.db, smtpUrl, from: 'station@example.com', clock });
    await mailer.send({ to: 'ada@example.com', subject: 'Your track is ready', text: 'Listen at https://x/t/1' });
    mailer.close();

    expect(received).toHaveLength(1);
    expect(received[0].from).toBe('station@example.com');
    expect(received[0].to).toEqual(['ada@example.com']);
    expect(received[0].raw).toMatch(/^Subject: Your track is ready$/m);
    expect(received[0].raw).toContain('Listen at https://x/t/1');

    const rows = await testDb.database.db.select().from(mailOutbox);
    expect(rows).toEqual([
      expect.objectContaining({
        toAddress: 'ada@example.com',
        subject: 'Your track is ready',
        transport: 'smtp',
        createdAt: new Date(Date.UTC(2026, 0, 15, 12, 0, 0)),
        sentAt: new Date(Date.UTC(2026, 0, 15, 12, 0, 0)),
        error: null,
      }),
    ]);
  });

  it('records the refusal and throws MailDeliveryError when the server rejects the recipient', async () => {
    const mailer = new SmtpMailer({ db: testDb.database.db, smtpUrl, from: 'station@example.com' });
    await expect(mailer.send({ to: 'nobody@refused.example', subject: 's', text: 't' })).rejects.toBeInstanceOf(MailDeliveryError);
    mailer.close();

    expect(received).toEqual([]);
    const [row] = await testDb.database.db.select().from(mailOutbox);
    expect(row.transport).toBe('smtp');
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/nobody@refused\.example.*mailbox unavailable/);
  });

  it('records the error when the SMTP server cannot be reached', async () => {
    const mailer = new SmtpMailer({
      db: testDb.database.db,
      smtpUrl: 'smtp://127.0.0.1:1?connectionTimeout=500',
      from: 'station@example.com',
    });
    await expect(mailer.send({ to: 'ada@example.com', subject: 's', text: 't' })).rejects.toThrow(MailDeliveryError);
    mailer.close();
    const [row] = await testDb.database.db.select().from(mailOutbox);
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
