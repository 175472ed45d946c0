import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

export async function up(db: Knex): Promise<void> {
  // Keys that act as one agent. Only the SHA-256 digest of a secret is stored: every request that
  // presents one finds its row by that digest (unique, so indexed), on every instance alike.
  await db.schema.createTable('agent_keys', (table) => {
    table.uuid('id').primary();
    table.uuid('agent_id').notNullable().references('id').inTable('agents').onDelete('CASCADE');
    table.text('name').notNullable();
    table.string('prefix', 16).notNullable();
    table.string('secret_digest', 64).notNullable().unique();
    // Space-separated, in api.yaml's order.
    table.string('scopes', 64).notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at');
    timestamp(table, 'last_used_at');
    timestamp(table, 'revoked_at');
    table.index(['agent_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_keys');
}
