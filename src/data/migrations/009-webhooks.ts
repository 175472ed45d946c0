import type { Knex } from 'knex';

const timestamp = (table: Knex.CreateTableBuilder, name: string) =>
  table.timestamp(name, { useTz: true, precision: 3 });

/**
 * Webhook endpoints, their deliveries (one per event and endpoint) and each delivery's attempts,
 * plus the fan-out mark: the last event id already turned into deliveries. A delivery keeps the
 * exact body it sends, so that every retry signs the same bytes even after its event is pruned.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhooks', (table) => {
    table.uuid('id').primary();
    // Null: made by a service key (it receives every event, as an admin's does).
    table.uuid('owner_id').references('id').inTable('users').onDelete('CASCADE');
    table.string('url', 2048).notNullable();
    // Space-separated event types; null: every type.
    table.text('types');
    table.string('description', 500);
    table.boolean('enabled').notNullable();
    // The signing secret, sealed with a key derived from TOKEN_ENCRYPTION_KEY.
    table.text('secret_sealed').notNullable();
    // Only events after this id are sent to it: those committed before it was created are not.
    table.bigInteger('after_event_id').notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    table.index(['owner_id', 'id']);
  });

  await db.schema.createTable('webhook_deliveries', (table) => {
    table.uuid('id').primary();
    table.uuid('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    table.bigInteger('event_id').notNullable();
    table.string('event_type', 32).notNullable();
    table.text('payload').notNullable();
    table.string('status', 16).notNullable();
    table.integer('attempts').notNullable();
    table.integer('last_status_code');
    table.text('last_error');
    timestamp(table, 'next_attempt_at');
    // The sender's lease: while it is in the future, one process is making an attempt.
    timestamp(table, 'locked_until');
    table.uuid('claim_token');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    // A fan-out that runs twice over one event makes no second delivery.
    table.unique(['webhook_id', 'event_id']);
    table.index(['webhook_id', 'id']);
    table.index(['status', 'next_attempt_at'], 'webhook_deliveries_due');
  });

  await db.schema.createTable('webhook_attempts', (table) => {
    table.uuid('id').primary();
    table.uuid('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    timestamp(table, 'attempted_at').notNullable();
    table.integer('status_code');
    table.text('error');
    table.integer('duration_ms').notNullable();
    table.index(['delivery_id', 'id']);
  });

  await db.schema.createTable('webhook_fanout', (table) => {
    table.integer('id').primary();
    table.bigInteger('last_event_id').notNullable();
  });
  // Events that happened before webhooks existed are nobody's to receive.
  const newest = await db('events').max({ id: 'id' }).first();
  await db('webhook_fanout').insert({ id: 1, last_event_id: Number(newest?.id ?? 0) });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_fanout');
  await db.schema.dropTable('webhook_attempts');
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhooks');
}
