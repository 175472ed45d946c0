import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('users', (table) => {
    table.uuid('id').primary();
    table.text('name').notNullable();
    // Stored lower-case: uniqueness is case-insensitive.
    table.string('email', 320).notNullable().unique();
    table.integer('age');
    table.string('role', 16).notNullable();
    table.text('password_hash');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
  });
  await db.schema.createTable('agents', (table) => {
    table.uuid('id').primary();
    // Null for agents created by a service principal (API key): only admins and keys reach them.
    table.uuid('owner_id').references('id').inTable('users').onDelete('CASCADE');
    table.text('name').notNullable();
    table.string('type', 32).notNullable();
    table.string('status', 32).notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.index(['status']);
    table.index(['owner_id', 'id']);
  });
  await db.schema.createTable('tasks', (table) => {
    table.uuid('id').primary();
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.text('title').notNullable();
    table.text('description');
    table.jsonb('input');
    table.integer('priority').notNullable();
    table.string('status', 32).notNullable();
    table.jsonb('result');
    table.text('error');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    timestamp(table, 'started_at');
    timestamp(table, 'finished_at');
    table.index(['agent_id', 'id']);
    table.index(['agent_id', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('tasks');
  await db.schema.dropTable('agents');
  await db.schema.dropTable('users');
}
