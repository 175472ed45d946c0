import type { Knex } from 'knex';

/**
 * Fewer writes on the work loop's path:
 *
 * - `tasks.log_lines` counts a task's kept log lines, so that an append knows at once whether the
 *   task is past its bound and deletes only the lines past it (the oldest, from the start of the
 *   task's index) instead of walking the whole log to find where the bound falls;
 * - `task_logs.agent_id` loses its foreign key: a line goes with its task (whose own key to its
 *   agent cascades), and checking two keys per line was a third of a batch's insert on PostgreSQL.
 *   The column stays;
 * - the index of queued tasks by availability holds queued tasks only (the only ones read through
 *   it), so that a task's other moves do not write it;
 * - the index on tasks (agent_id, status) goes: the claim's index (agent_id, status, priority, id)
 *   begins with the same columns and answers the same look-ups.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.integer('log_lines').notNullable().defaultTo(0);
  });
  await db.raw('update tasks set log_lines = (select count(*) from task_logs where task_logs.task_id = tasks.id) where exists (select 1 from task_logs where task_logs.task_id = tasks.id)');
  await db.schema.alterTable('task_logs', (table) => {
    table.dropForeign(['agent_id']);
  });
  await db.raw('drop index tasks_agent_available');
  await db.raw(`create index tasks_queued_available on tasks (agent_id, available_at) where status = 'queued'`);
  await db.raw('drop index tasks_agent_id_status_index');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('create index tasks_agent_id_status_index on tasks (agent_id, status)');
  await db.raw('drop index tasks_queued_available');
  await db.raw('create index tasks_agent_available on tasks (agent_id, status, available_at)');
  // Lines whose agent is gone (none, while each goes with its task) would refuse the key.
  await db.raw('delete from task_logs where not exists (select 1 from agents where agents.id = task_logs.agent_id)');
  await db.schema.alterTable('task_logs', (table) => {
    table.foreign('agent_id').references('id').inTable('agents').onDelete('CASCADE');
  });
  // Not knex's dropColumn: on SQLite it rebuilds the table, which loses its triggers and, by the
  // cascade of its drop, every lease and log line of its tasks.
  await db.raw('alter table tasks drop column log_lines');
}
