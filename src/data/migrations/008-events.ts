import type { Knex } from 'knex';

/**
 * The fleet's history: one row per change of an agent or a task, written in the transaction of
 * the change (a transactional outbox). Streams, pages and webhook deliveries all read it in `id`
 * order. No foreign keys: an agent's events outlive the agent (`agent.deleted` is one of them),
 * and `owner_id` keeps who may read them after it is gone.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  await db.schema.createTable('events', (table) => {
    // SQLite: a plain INTEGER PRIMARY KEY (the rowid), not AUTOINCREMENT, whose sqlite_sequence row
    // would be one more page written with every change. Ids still only grow: the newest event is
    // never pruned, and a new rowid is the largest one plus one.
    if (postgres) table.bigIncrements('id').primary();
    else table.specificType('id', 'integer primary key');
    table.string('type', 32).notNullable();
    table.timestamp('occurred_at', { useTz: true, precision: 3 }).notNullable();
    table.uuid('agent_id').notNullable();
    table.uuid('owner_id');
    table.uuid('task_id');
    table.jsonb('data').notNullable();
    table.index(['agent_id', 'id']);
    table.index(['owner_id', 'id']);
    // No index on occurred_at: every index is written with each change's event, and pruning walks
    // the oldest events by id instead (ids follow commit order, and so, closely, the clock).
  });
  // The highest id pruned so far: a reader resuming from an older id has lost events (410).
  await db.schema.createTable('event_log', (table) => {
    table.integer('id').primary();
    table.bigInteger('pruned_through').notNullable();
  });
  await db('event_log').insert({ id: 1, pruned_through: 0 });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('event_log');
  await db.schema.dropTable('events');
}
