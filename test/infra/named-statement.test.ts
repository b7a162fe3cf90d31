/**
 * namedStatement (src/infra/db/named-statement.ts): the same rows as Drizzle's own prepared query, on PGlite and
 * on PostgreSQL (where it bypasses Drizzle for the pool), placeholders filled per call and fixed values kept.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artists } from '../../src/infra/db/schema/index.js';
import { namedStatement } from '../../src/infra/db/named-statement.js';
import { databaseBackends, type TestDatabase } from './database.js';

for (const backend of databaseBackends) {
  describe.skipIf(!backend.enabled)(`namedStatement on ${backend.name}`, () => {
    let test: TestDatabase;
    const id = randomUUID();

    beforeAll(async () => {
      test = await backend.open();
      await test.database.db.insert(artists).values({ id, slug: 'named-statement', name: 'Named "Statement"', genre: 'Folk' });
    }, 60_000);
    afterAll(() => test?.dispose());

    function query() {
      const { db } = test.database;
      return db
        .select({ card: sql<{ name: string; genre: string } | string>`json_build_object('name', ${artists.name}, 'genre', ${artists.genre})`.as('card') })
        .from(artists)
        .where(and(eq(artists.id, sql.placeholder('id')), eq(artists.genre, 'Folk')));
    }

    it('answers what Drizzle prepared answers, on every pooled connection, and nothing for another id', async () => {
      const statement = namedStatement(test.database.db, 'test_named_statement', query());
      const expected = await query().prepare('test_named_statement_drizzle').execute({ id });
      const rows = await Promise.all(Array.from({ length: 6 }, () => statement({ id })));
      const parse = (card: unknown) => (typeof card === 'string' ? JSON.parse(card) : card);
      for (const answer of rows) {
        expect(answer.map((row) => parse(row.card))).toEqual(expected.map((row) => parse(row.card)));
        expect(parse(answer[0].card)).toEqual({ name: 'Named "Statement"', genre: 'Folk' });
      }
      expect(await statement({ id: randomUUID() })).toEqual([]);
    });

    it('refuses a call without a value for a placeholder', async () => {
      const statement = namedStatement(test.database.db, 'test_named_statement_missing', query());
      await expect(statement({})).rejects.toThrow(/placeholder/);
    });
  });
}
