import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) => table.timestamp(name, { useTz: true, precision: 3 });

/**
 * Steering the queue:
 *
 * - `tasks.run_at` (when a task was asked to run), `timeout_seconds` and `deadline_at` (its first
 *   lease plus the timeout, set by the claim), `schedule_id` (the schedule that made it; kept
 *   when the schedule is deleted, so not a foreign key);
 * - a partial index of the unfinished tasks that have a deadline, which the sweeper reads;
 * - `agents.max_concurrency` (null: no limit);
 * - `schedules`, with a partial index of the unpaused ones by their next firing, which every
 *   instance polls.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    timestamp(table, 'run_at');
    table.integer('timeout_seconds');
    timestamp(table, 'deadline_at');
    table.uuid('schedule_id');
  });
  await db.raw(`create index tasks_unfinished_deadline on tasks (deadline_at) where status in ('queued', 'running') and deadline_at is not null`);
  await db.schema.alterTable('agents', (table) => {
    table.integer('max_concurrency');
  });
  await db.schema.createTable('schedules', (table) => {
    table.uuid('id').primary();
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.string('name', 100);
    table.string('cron', 200);
    table.string('timezone', 64).notNullable();
    table.integer('interval_seconds');
    table.jsonb('template').notNullable();
    table.boolean('paused').notNullable();
    table.string('overlap', 8).notNullable();
    timestamp(table, 'next_run_at');
    timestamp(table, 'last_run_at');
    table.uuid('last_task_id');
    table.text('last_error');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.index(['agent_id', 'id'], 'schedules_agent');
  });
  await db.raw('create index schedules_due on schedules (next_run_at) where next_run_at is not null');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('schedules');
  // Not knex's dropColumn: on SQLite it rebuilds the table, which loses its triggers and, by the
  // cascade of its drop, every lease and log line of its tasks.
  await db.raw('alter table agents drop column max_concurrency');
  await db.raw('drop index tasks_unfinished_deadline');
  for (const column of ['schedule_id', 'deadline_at', 'timeout_seconds', 'run_at']) await db.raw(`alter table tasks drop column ${column}`);
}
