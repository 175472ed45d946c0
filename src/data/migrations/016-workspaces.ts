import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

/**
 * Workspaces, the unit a fleet is shared in, and their members (one role each).
 *
 * - Every user has a personal workspace whose id is the user's own: what a user creates without
 *   naming a workspace goes there with no look-up, and it goes with its user (the cascade).
 * - One `service` workspace holds what service keys create.
 * - Agents and webhooks belong to exactly one workspace; events name the workspace of their agent
 *   as it was when they happened, as `owner_id` named its owner.
 *
 * Existing rows move without changing what anyone reads: each user becomes the owner of their
 * personal workspace, which receives their agents and webhooks; agents and webhooks without an
 * owner go to `service`, which only platform admins and service keys reach until it is shared.
 *
 * `workspace_id` is a plain column, not a foreign key: SQLite adds a column with a foreign key
 * only by rebuilding the table (dropping `agents` would cascade to every task) and cannot drop one
 * on the way back. A trigger deletes a workspace's agents and webhooks with it instead, whichever
 * path deletes it (a user's deletion takes their personal workspace along). On SQLite the trigger
 * names both tables, so a later migration changes them with plain ALTER TABLE, never with knex's
 * rebuilding alterTable (which SQLite refuses while the trigger names the table being renamed).
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';
  const uuid = postgres ? 'uuid' : 'char(36)';
  await db.schema.createTable('workspaces', (table) => {
    table.uuid('id').primary();
    table.text('name').notNullable();
    // personal | shared | service
    table.string('kind', 16).notNullable();
    // The user a personal workspace belongs to (its id is theirs too); null for the others.
    table.uuid('personal_of').unique().references('id').inTable('users').onDelete('CASCADE');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
  });
  await db.schema.createTable('workspace_members', (table) => {
    table.uuid('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // viewer | operator | admin | owner
    table.string('role', 16).notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.primary(['workspace_id', 'user_id']);
    // A member's workspaces: the scope of every read that is not a platform admin's.
    table.index(['user_id', 'workspace_id']);
  });
  await db.schema.createTable('workspace_invitations', (table) => {
    table.uuid('id').primary();
    table.uuid('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    // Stored lower-case: only the user with this address accepts it.
    table.string('email', 320).notNullable();
    table.string('role', 16).notNullable();
    // SHA-256 of the token, which is shown once: the database never holds a usable one.
    table.string('token_digest', 64).notNullable().unique();
    table.uuid('invited_by').references('id').inTable('users').onDelete('SET NULL');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'accepted_at');
    table.uuid('accepted_by');
    timestamp(table, 'revoked_at');
    table.index(['workspace_id', 'id']);
  });

  const at = new Date();
  const service = randomUUID();
  await db('workspaces').insert({ id: service, name: 'service', kind: 'service', personal_of: null, created_at: at, updated_at: at });
  await db.raw(
    `insert into workspaces (id, name, kind, personal_of, created_at, updated_at)
     select id, name, 'personal', id, created_at, created_at from users`,
  );
  await db.raw(
    `insert into workspace_members (workspace_id, user_id, role, created_at, updated_at)
     select id, id, 'owner', created_at, created_at from users`,
  );

  await db.raw(`alter table agents add column workspace_id ${uuid}`);
  await db.raw('update agents set workspace_id = coalesce(owner_id, ?)', [service]);
  await db.raw('create index agents_workspace_id on agents (workspace_id, id)');
  await db.raw(`alter table webhooks add column workspace_id ${uuid}`);
  await db.raw('update webhooks set workspace_id = coalesce(owner_id, ?)', [service]);
  await db.raw('create index webhooks_workspace_id on webhooks (workspace_id, id)');
  const cascade = 'delete from agents where workspace_id = old.id; delete from webhooks where workspace_id = old.id;';
  if (postgres) {
    await db.raw('alter table agents alter column workspace_id set not null');
    await db.raw('alter table webhooks alter column workspace_id set not null');
    await db.raw(`create function workspaces_cascade() returns trigger language plpgsql as $$ begin ${cascade} return old; end $$`);
    await db.raw('create trigger workspaces_cascade after delete on workspaces for each row execute function workspaces_cascade()');
  } else {
    await db.raw(`create trigger workspaces_cascade after delete on workspaces begin ${cascade} end`);
  }

  await db.raw(`alter table events add column workspace_id ${uuid}`);
  await db.raw('update events set workspace_id = coalesce(owner_id, ?)', [service]);
  await db.raw('create index events_workspace_id on events (workspace_id, id)');
}

export async function down(db: Knex): Promise<void> {
  if (db.client.dialect === 'postgresql') {
    await db.raw('drop trigger workspaces_cascade on workspaces');
    await db.raw('drop function workspaces_cascade()');
  } else {
    await db.raw('drop trigger workspaces_cascade');
  }
  await db.raw('drop index events_workspace_id');
  await db.raw('drop index webhooks_workspace_id');
  await db.raw('drop index agents_workspace_id');
  // Not knex's dropColumn: on SQLite it rebuilds the table, which loses its triggers and, by the
  // cascade of its drop, every task of the agents.
  await db.raw('alter table events drop column workspace_id');
  await db.raw('alter table webhooks drop column workspace_id');
  await db.raw('alter table agents drop column workspace_id');
  await db.schema.dropTable('workspace_invitations');
  await db.schema.dropTable('workspace_members');
  await db.schema.dropTable('workspaces');
}
