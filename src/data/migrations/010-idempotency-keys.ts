import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) => table.timestamp(name, { useTz: true, precision: 3 });

/**
 * Idempotency keys of creates: one row per (principal, key). The row is inserted before the
 * operation runs, so the primary key decides which of several identical requests runs; the
 * others find it in flight (no `status` yet) or read its kept answer.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (table) => {
    // `user:<id>`, `service:<n>`, `agent-key:<id>` or `address:<ip>`.
    table.string('principal', 100).notNullable();
    table.string('key', 255).notNullable();
    // SHA-256 (hex) of the method, the path with its query and the canonical body.
    table.string('fingerprint', 64).notNullable();
    // Which attempt holds the row: a takeover or a completion is a compare-and-swap on it.
    table.uuid('owner').notNullable();
    timestamp(table, 'started_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    // The kept answer; null while the first request runs.
    table.integer('status');
    table.string('content_type', 255);
    table.text('location');
    table.string('etag', 255);
    table.string('cache_control', 255);
    // The body as sent, or (an answer that must not be stored, `Cache-Control: no-store`) sealed.
    table.text('body');
    table.boolean('sealed').notNullable().defaultTo(false);
    table.primary(['principal', 'key']);
    table.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}
