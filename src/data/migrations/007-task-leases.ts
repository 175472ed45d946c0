import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

/**
 * The work queue: tasks count their attempts, wait for `available_at` while a retry
 * backs off, carry their worker's progress and the lease that holds them; leases are rows of their
 * own, so a stale worker's lease can be told from the current one.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  await db.schema.alterTable('tasks', (table) => {
    table.integer('attempts').notNullable().defaultTo(0);
    table.integer('max_attempts').notNullable().defaultTo(3);
    // Written by every insert; nullable only while existing rows are filled in below.
    timestamp(table, 'available_at');
    table.jsonb('progress');
    // No foreign key: leases point at their task (and go with it); this is the task's pointer back, kept by the domain.
    table.uuid('lease_id');
  });
  // A task that has started was claimed once; one that went further than its attempts allow keeps them.
  await db.raw('update tasks set available_at = created_at, attempts = case when started_at is null then 0 else 1 end');
  // SQLite cannot add NOT NULL to an existing column without rebuilding the table (and its foreign keys).
  if (postgres) await db.raw('alter table tasks alter column available_at set not null');
  // The claim: an agent's queued tasks, highest priority first, then the oldest (ids are time-ordered).
  await db.raw('create index tasks_claim_order on tasks (agent_id, status, priority desc, id)');

  await db.schema.createTable('leases', (table) => {
    table.uuid('id').primary();
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.uuid('task_id').notNullable().references('id').inTable('tasks').onDelete('CASCADE');
    table.string('status', 16).notNullable();
    table.integer('ttl_seconds').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'ended_at');
    table.index(['agent_id', 'id']);
    table.index(['task_id']);
    // The sweep, and the claim's look for its agent's expired leases: active ones past their time.
    table.index(['status', 'expires_at'], 'leases_expiry');
    table.index(['agent_id', 'status', 'expires_at'], 'leases_agent_expiry');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('leases');
  await db.raw('drop index tasks_claim_order');
  await db.schema.alterTable('tasks', (table) => {
    for (const column of ['attempts', 'max_attempts', 'available_at', 'progress', 'lease_id']) table.dropColumn(column);
  });
}
