import type { Knex } from 'knex';

/**
 * What an agent's stats read, kept so that a read does not grow with the agent's history:
 *
 * - `agent_task_counts`: how many tasks each agent has in each status, changed by triggers on
 *   `tasks` in the statement that inserts, moves or deletes a task (so no write path can forget
 *   it). Every such write already holds its agent's row lock, which keeps an agent's counters
 *   from being taken in two orders at once; the PostgreSQL trigger takes the two rows of a move
 *   in one fixed order all the same.
 * - `leases.wait_ms`: how long after its task's creation a lease began (for a first lease, the
 *   task's wait), written by the claim, read through a partial index of first leases.
 * - on PostgreSQL, the index of ended leases carries their outcome and start, so that outcomes and
 *   run times are read from the index alone.
 *
 * Existing tasks are counted and existing leases given their wait.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  await db.schema.createTable('agent_task_counts', (table) => {
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.string('status', 32).notNullable();
    table.bigInteger('n').notNullable();
    table.primary(['agent_id', 'status']);
  });
  await db.raw('insert into agent_task_counts (agent_id, status, n) select agent_id, status, count(*) from tasks group by agent_id, status');
  if (postgres) {
    await db.raw(`
      create function agent_task_counts_follow() returns trigger language plpgsql as $$
      begin
        -- The row that sorts first is changed first, whichever way the task moves.
        if tg_op = 'UPDATE' and (new.agent_id::text || new.status) < (old.agent_id::text || old.status) then
          insert into agent_task_counts as c (agent_id, status, n) values (new.agent_id, new.status, 1)
            on conflict (agent_id, status) do update set n = c.n + 1;
          update agent_task_counts set n = n - 1 where agent_id = old.agent_id and status = old.status;
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          update agent_task_counts set n = n - 1 where agent_id = old.agent_id and status = old.status;
        end if;
        if tg_op in ('UPDATE', 'INSERT') then
          insert into agent_task_counts as c (agent_id, status, n) values (new.agent_id, new.status, 1)
            on conflict (agent_id, status) do update set n = c.n + 1;
        end if;
        return null;
      end $$`);
    await db.raw('create trigger tasks_counted after insert or delete on tasks for each row execute function agent_task_counts_follow()');
    await db.raw(`
      create trigger tasks_counted_move after update of status, agent_id on tasks for each row
      when (old.status is distinct from new.status or old.agent_id is distinct from new.agent_id)
      execute function agent_task_counts_follow()`);
  } else {
    const add = `insert into agent_task_counts (agent_id, status, n) values (new.agent_id, new.status, 1)
      on conflict (agent_id, status) do update set n = n + 1;`;
    const remove = 'update agent_task_counts set n = n - 1 where agent_id = old.agent_id and status = old.status;';
    await db.raw(`create trigger tasks_counted_insert after insert on tasks begin ${add} end`);
    await db.raw(`create trigger tasks_counted_delete after delete on tasks begin ${remove} end`);
    await db.raw(`
      create trigger tasks_counted_move after update of status, agent_id on tasks
      when old.status is not new.status or old.agent_id is not new.agent_id
      begin ${remove} ${add} end`);
  }

  await db.schema.alterTable('leases', (table) => {
    table.bigInteger('wait_ms');
  });
  const waitMs = postgres
    ? 'round(extract(epoch from (leases.created_at - tasks.created_at)) * 1000)'
    : 'cast(round((julianday(leases.created_at) - julianday(tasks.created_at)) * 86400000.0) as integer)';
  const atLeastZero = postgres ? 'greatest' : 'max';
  await db.raw(`update leases set wait_ms = (select ${atLeastZero}(0, ${waitMs}) from tasks where tasks.id = leases.task_id)`);
  if (postgres) {
    await db.raw('create index leases_agent_first_wait on leases (agent_id, created_at) include (wait_ms) where number = 1');
    await db.raw('drop index leases_agent_ended');
    await db.raw('create index leases_agent_ended on leases (agent_id, ended_at) include (outcome, created_at)');
  } else {
    await db.raw('create index leases_agent_first_wait on leases (agent_id, created_at, wait_ms) where number = 1');
  }
}

export async function down(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  await db.raw('drop index leases_agent_first_wait');
  if (postgres) {
    await db.raw('drop index leases_agent_ended');
    await db.raw('create index leases_agent_ended on leases (agent_id, ended_at)');
  }
  // Not knex's dropColumn, which rebuilds the table on SQLite.
  await db.raw('alter table leases drop column wait_ms');
  if (postgres) {
    await db.raw('drop trigger tasks_counted on tasks');
    await db.raw('drop trigger tasks_counted_move on tasks');
    await db.raw('drop function agent_task_counts_follow()');
  } else {
    for (const name of ['tasks_counted_insert', 'tasks_counted_delete', 'tasks_counted_move']) await db.raw(`drop trigger ${name}`);
  }
  await db.schema.dropTable('agent_task_counts');
}
