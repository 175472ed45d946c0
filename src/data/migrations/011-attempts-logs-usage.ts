import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder | Knex.AlterTableBuilder, name: string) => table.timestamp(name, { useTz: true, precision: 3 });

/**
 * What each task went through. A lease is an attempt: it now records who claimed it, its number
 * among the task's leases, its last heartbeat and progress, how it ended and why, and the tokens
 * and money it reported. Tasks keep their last error across a requeue and the sum of their usage.
 * Workers' log lines are rows of their own; usage is also summed per agent and hour.
 *
 * Leases written before this migration are filled in as far as they can be: numbered in the order
 * they were made, their outcome read from their status (a completed lease succeeded when its task
 * did and it was the task's last, and failed otherwise), expiries given the error they had. Who
 * claimed them was never recorded and stays unknown.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  await db.schema.alterTable('leases', (table) => {
    table.integer('number');
    // Who claimed: `user`, `service` or `agent_key`, and that credential's id (a user's, a key's, the service key's number).
    table.string('worker_kind', 16);
    table.string('worker_id', 64);
    table.string('outcome', 16);
    table.text('error');
    timestamp(table, 'last_heartbeat_at');
    table.jsonb('progress');
    table.bigInteger('input_tokens').notNullable().defaultTo(0);
    table.bigInteger('output_tokens').notNullable().defaultTo(0);
    // Money as whole millionths of a dollar: sums never drift as floating point would.
    table.bigInteger('cost_micro_usd').notNullable().defaultTo(0);
    table.string('model', 200);
    // The workers of an agent: leases made lately; its run times: leases ended lately.
    table.index(['agent_id', 'created_at'], 'leases_agent_created');
    table.index(['agent_id', 'ended_at'], 'leases_agent_ended');
  });
  await db.schema.alterTable('tasks', (table) => {
    table.text('last_error');
    table.bigInteger('input_tokens').notNullable().defaultTo(0);
    table.bigInteger('output_tokens').notNullable().defaultTo(0);
    table.bigInteger('cost_micro_usd').notNullable().defaultTo(0);
    // An agent's stats: its queued tasks that wait for a later `available_at`.
    table.index(['agent_id', 'status', 'available_at'], 'tasks_agent_available');
  });

  await db.raw(`
    update leases set number = (
      select count(*) from leases earlier
      where earlier.task_id = leases.task_id
        and (earlier.created_at < leases.created_at or (earlier.created_at = leases.created_at and earlier.id <= leases.id))
    )`);
  await db.raw(`
    update leases set outcome = case
      when status = 'active' then null
      when status in ('released', 'expired', 'cancelled') then status
      when exists (
        select 1 from tasks where tasks.id = leases.task_id and tasks.status = 'succeeded'
          and not exists (select 1 from leases later where later.task_id = leases.task_id and later.number > leases.number)
      ) then 'succeeded'
      else 'failed' end`);
  await db.raw(`update leases set error = 'lease expired' where status = 'expired'`);
  await db.raw(`
    update leases set error = (select tasks.error from tasks where tasks.id = leases.task_id)
    where outcome = 'failed'
      and not exists (select 1 from leases later where later.task_id = leases.task_id and later.number > leases.number)`);
  // A failed task's error becomes its last error too, which it stores (and its agent and owner
  // count) as it would had it been written now, measured as migration 005 measures.
  const errorBytes = postgres ? 'coalesce(octet_length(to_jsonb(tasks.error)::text), 0)' : '(case when tasks.error is null then 0 else length(cast(json_quote(tasks.error) as blob)) end)';
  await db.raw(`update users set stored_bytes = stored_bytes + (
    select coalesce(sum(${errorBytes}), 0) from tasks join agents on agents.id = tasks.agent_id
    where agents.owner_id = users.id and tasks.error is not null)`);
  await db.raw(`update agents set stored_bytes = stored_bytes + (
    select coalesce(sum(${errorBytes}), 0) from tasks where tasks.agent_id = agents.id and tasks.error is not null)`);
  await db.raw(`update tasks set last_error = error, stored_bytes = stored_bytes + ${errorBytes} where error is not null`);

  await db.schema.createTable('task_logs', (table) => {
    table.bigIncrements('id').primary();
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.uuid('task_id').notNullable().references('id').inTable('tasks').onDelete('CASCADE');
    table.uuid('lease_id').notNullable();
    table.integer('attempt').notNullable();
    table.string('level', 8).notNullable();
    table.text('message').notNullable();
    table.text('data');
    timestamp(table, 'at').notNullable();
    // A task's lines in order (reads, and trimming the oldest past the bound).
    table.index(['task_id', 'id'], 'task_logs_task_order');
  });

  await db.schema.createTable('agent_usage', (table) => {
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    timestamp(table, 'hour').notNullable();
    // '' when the worker named no model: part of the key, so never null.
    table.string('model', 200).notNullable();
    table.bigInteger('input_tokens').notNullable().defaultTo(0);
    table.bigInteger('output_tokens').notNullable().defaultTo(0);
    table.bigInteger('cost_micro_usd').notNullable().defaultTo(0);
    table.primary(['agent_id', 'hour', 'model']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_usage');
  await db.schema.dropTable('task_logs');
  await db.schema.alterTable('tasks', (table) => {
    table.dropIndex(['agent_id', 'status', 'available_at'], 'tasks_agent_available');
    for (const column of ['last_error', 'input_tokens', 'output_tokens', 'cost_micro_usd']) table.dropColumn(column);
  });
  await db.schema.alterTable('leases', (table) => {
    table.dropIndex(['agent_id', 'created_at'], 'leases_agent_created');
    table.dropIndex(['agent_id', 'ended_at'], 'leases_agent_ended');
    for (const column of ['number', 'worker_kind', 'worker_id', 'outcome', 'error', 'last_heartbeat_at', 'progress', 'input_tokens', 'output_tokens', 'cost_micro_usd', 'model']) {
      table.dropColumn(column);
    }
  });
}
