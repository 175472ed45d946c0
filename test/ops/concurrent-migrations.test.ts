import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { connectDatabase } from '../../src/data/database';
import { describeWithPostgres } from '../support/harness';
import { PG_TEST_URL } from '../support/services';

/** Instances starting at once on an empty schema; a race would show within a few rounds. */
const ROUNDS = 8;
const INSTANCES = 4;

describeWithPostgres('migrations when several instances start at once on PostgreSQL', () => {
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  afterAll(() => admin.destroy());

  it(`when ${INSTANCES} instances connect to a fresh schema at the same instant (${ROUNDS} rounds), then every one comes up and the schema is migrated exactly once`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const schema = `race_${randomBytes(5).toString('hex')}`;
      await admin.raw('create schema ??', [schema]);
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: INSTANCES }, () => connectDatabase({ client: 'pg', connectionString: PG_TEST_URL }, { searchPath: schema })),
        );
        const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
        for (const outcome of outcomes) if (outcome.status === 'fulfilled') await outcome.value.destroy();
        expect(failures).toEqual([]);
        const applied = await admin.withSchema(schema).from('knex_migrations').select('name');
        expect(applied.length).toBeGreaterThan(0);
        expect(new Set(applied.map((row: { name: string }) => row.name)).size).toBe(applied.length);
      } finally {
        await admin.raw('drop schema ?? cascade', [schema]);
      }
    }
  });

  it('when the schema is already migrated, then instances starting together find nothing to do and come up', async () => {
    const schema = `race_${randomBytes(5).toString('hex')}`;
    await admin.raw('create schema ??', [schema]);
    try {
      const first = await connectDatabase({ client: 'pg', connectionString: PG_TEST_URL }, { searchPath: schema });
      await first.destroy();
      const again = await Promise.all(Array.from({ length: INSTANCES }, () => connectDatabase({ client: 'pg', connectionString: PG_TEST_URL }, { searchPath: schema })));
      await Promise.all(again.map((db) => db.destroy()));
    } finally {
      await admin.raw('drop schema ?? cascade', [schema]);
    }
  });
});
