import type { Knex } from 'knex';

/**
 * The event log becomes the workspaces' audit trail:
 *
 * - `actor_type` and `actor_id` say who made each change (a user, an agent key, a service key;
 *   null for changes the service made itself and for events written before);
 * - `agent_id` may be null: a workspace's own changes (members, invitations, webhooks, its name)
 *   concern no agent;
 * - the index by owner goes: reads are scoped by workspace now, and every index is written with
 *   each change's event.
 *
 * SQLite cannot drop a NOT NULL: the table is rebuilt, its rows copied with their ids (the newest
 * id stays the newest, so ids keep growing). Nothing references `events`, and it has no triggers.
 */
/** The SQLite events table, rebuilt as `events_next`: with actors and a nullable agent (up), or as migration 016 left it (down). */
async function rebuildSqliteEvents(db: Knex, withActors: boolean): Promise<void> {
  // The columns both shapes have: the actors are new going up, and dropped going down.
  const kept = 'id, type, occurred_at, agent_id, owner_id, task_id, data, workspace_id';
  await db.raw(
    'create table events_next (id integer primary key, type varchar(32) not null, occurred_at datetime not null, ' +
      `agent_id char(36)${withActors ? '' : ' not null'}, owner_id char(36), task_id char(36), data json not null, workspace_id char(36)` +
      `${withActors ? ', actor_type varchar(16), actor_id varchar(64)' : ''})`,
  );
  await db.raw(`insert into events_next (${kept}) select ${kept} from events`);
  await db.raw('drop table events');
  await db.raw('alter table events_next rename to events');
  await db.raw('create index events_agent_id_id_index on events (agent_id, id)');
  await db.raw('create index events_workspace_id on events (workspace_id, id)');
}

export async function up(db: Knex): Promise<void> {
  if (db.client.dialect === 'postgresql') {
    await db.raw('alter table events alter column agent_id drop not null');
    await db.raw('alter table events add column actor_type varchar(16), add column actor_id varchar(64)');
    await db.raw('drop index events_owner_id_id_index');
    return;
  }
  await rebuildSqliteEvents(db, true);
}

export async function down(db: Knex): Promise<void> {
  // A workspace's own changes have no agent: the log before this migration cannot hold them.
  await db('events').whereNull('agent_id').delete();
  if (db.client.dialect === 'postgresql') {
    await db.raw('alter table events drop column actor_type, drop column actor_id');
    await db.raw('alter table events alter column agent_id set not null');
  } else {
    await rebuildSqliteEvents(db, false);
  }
  await db.raw('create index events_owner_id_id_index on events (owner_id, id)');
}
