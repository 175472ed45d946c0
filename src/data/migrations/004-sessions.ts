import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

export async function up(db: Knex): Promise<void> {
  // One row per sign-in: every access token names its session (`sid`), so ending the row ends the
  // token on every instance at once. A refresh-token family is one session.
  await db.schema.createTable('sessions', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('method', 16).notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'revoked_at');
    table.string('revoked_reason', 32);
    table.index(['user_id']);
  });
  // Only SHA-256 digests are stored. A used (rotated) token stays so that presenting it again is
  // recognised as reuse and ends its family (RFC 9700 section 4.14.2).
  await db.schema.createTable('refresh_tokens', (table) => {
    table.string('token_hash', 64).primary();
    table.uuid('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'used_at');
    table.index(['session_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('refresh_tokens');
  await db.schema.dropTable('sessions');
}
