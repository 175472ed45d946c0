import type { Knex } from 'knex';

/**
 * Tasks that wait for a later `available_at` (a `run_at` ahead, a retry's back-off) stay out of
 * the claim's way:
 *
 * - `tasks.deferred` is set when a task is queued with an `available_at` after the write that
 *   queues it, and cleared by the agent's next claim once that time has come;
 * - the claim's index gains the flag after the status, so a claim walks only the tasks it may take
 *   in priority order. Before, every deferred task of a higher or equal priority was read and
 *   passed over on each claim: 10,000 of them cost PostgreSQL 2.3 ms a claim;
 * - the index of queued tasks by availability holds the deferred ones only: the claim's release of
 *   due tasks, the count of waiting tasks and the next wake-up read it.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.boolean('deferred').notNullable().defaultTo(false);
  });
  await db.raw(`update tasks set deferred = true where status = 'queued' and available_at > updated_at`);
  await db.raw('drop index tasks_claim_order');
  await db.raw('create index tasks_claim_order on tasks (agent_id, status, deferred, priority desc, id)');
  await db.raw('drop index tasks_queued_available');
  await db.raw(`create index tasks_deferred_available on tasks (agent_id, available_at) where status = 'queued' and deferred`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index tasks_deferred_available');
  await db.raw(`create index tasks_queued_available on tasks (agent_id, available_at) where status = 'queued'`);
  await db.raw('drop index tasks_claim_order');
  await db.raw('create index tasks_claim_order on tasks (agent_id, status, priority desc, id)');
  // Not knex's dropColumn: on SQLite it rebuilds the table, which loses its triggers and, by the
  // cascade of its drop, every lease and log line of its tasks.
  await db.raw('alter table tasks drop column deferred');
}
