import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

export async function up(db: Knex): Promise<void> {
  // A user signed in through a third-party provider: one subject per provider, one provider account per user.
  await db.schema.createTable('user_identities', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('provider', 32).notNullable();
    table.string('subject', 255).notNullable();
    table.string('email', 320);
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.unique(['provider', 'subject']);
    table.unique(['user_id', 'provider']);
  });
  // The provider's tokens, AES-256-GCM encrypted. `version` and the refresh lease let exactly one
  // caller (of any instance) refresh a token while the others wait for its result.
  await db.schema.createTable('provider_tokens', (table) => {
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('provider', 32).notNullable();
    table.text('access_token').notNullable();
    table.text('refresh_token');
    table.string('token_type', 32).notNullable();
    table.text('scope');
    timestamp(table, 'expires_at');
    table.integer('version').notNullable();
    table.string('refresh_lease_owner', 64);
    timestamp(table, 'refresh_lease_until');
    timestamp(table, 'refreshed_at');
    timestamp(table, 'refresh_failed_at');
    table.text('refresh_error');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.primary(['user_id', 'provider']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('provider_tokens');
  await db.schema.dropTable('user_identities');
}
