/** The embedded mailer writes each message to mail_outbox; admins page through it newest first. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { mailOutbox } from '../../src/infra/db/schema/ops.js';
import { OutboxMailer, listOutbox } from '../../src/infra/mail/outbox-mailer.js';
import { type TestDatabase, databaseBackends } from './database.js';

for (const backend of databaseBackends) {
  describe.skipIf(!backend.enabled)(`OutboxMailer on ${backend.name}`, () => {
    let testDb: TestDatabase;
    let clock: ManualClock;

    beforeAll(async () => {
      testDb = await backend.open();
    });
    afterAll(async () => {
      await testDb?.dispose();
    });
    beforeEach(async () => {
      await testDb.database.db.delete(mailOutbox);
      clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
    });

    it('writes the message to mail_outbox with transport outbox and nothing sent', async () => {
      const mailer = new OutboxMailer(testDb.database.db, clock);
      await mailer.send({ to: 'ada@example.com', subject: 'Reset your password', text: 'https://x/reset?t=abc' });

      const rows = await testDb.database.db.select().from(mailOutbox);
      expect(rows).toEqual([
        {
          id: expect.any(String),
          toAddress: 'ada@example.com',
          subject: 'Reset your password',
          textBody: 'https://x/reset?t=abc',
          transport: 'outbox',
          createdAt: new Date(Date.UTC(2026, 0, 15, 12, 0, 0)),
          sentAt: null,
          error: null,
        },
      ]);
    });

    it('writes inside the caller transaction, so a rolled-back signup sends nothing', async () => {
      await testDb.database.db
        .transaction(async (tx) => {
          await new OutboxMailer(tx, clock).send({ to: 'b@example.com', subject: 'Welcome', text: 'hi' });
          throw new Error('rollback');
        })
        .catch(() => undefined);
      expect(await testDb.database.db.select().from(mailOutbox)).toEqual([]);
    });

    it('lists the outbox newest first, paged, with the total', async () => {
      const mailer = new OutboxMailer(testDb.database.db, clock);
      for (let n = 1; n <= 5; n += 1) {
        await mailer.send({ to: `u${n}@example.com`, subject: `mail ${n}`, text: 'x' });
        clock.advance(60_000);
      }

      const first = await listOutbox(testDb.database.db, { page: 1, limit: 2 });
      expect(first.total).toBe(5);
      expect(first.page).toBe(1);
      expect(first.limit).toBe(2);
      expect(first.data.map((m) => m.subject)).toEqual(['mail 5', 'mail 4']);

      const last = await listOutbox(testDb.database.db, { page: 3, limit: 2 });
      expect(last.data.map((m) => m.subject)).toEqual(['mail 1']);

      const beyond = await listOutbox(testDb.database.db, { page: 9, limit: 2 });
      expect(beyond).toEqual({ data: [], total: 5, page: 9, limit: 2 });
    });
  });
}
