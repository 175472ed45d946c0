import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('posts', (table) => {
    table.uuid('id').primary();
    table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.text('title').notNullable();
    table.text('body').notNullable();
    table.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    table.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
    table.index(['user_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('posts');
}
