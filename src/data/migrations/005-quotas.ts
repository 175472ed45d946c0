import type { Knex } from 'knex';

/**
 * What each row stores, in bytes as JSON, for the per-user quota and the response budget: a task's
 * title, description, input, result and error; a post's title and body. An agent carries the sum
 * of its tasks and a user the sum of their agents and posts, kept by every write in its own
 * transaction, so neither a quota check nor deleting an agent ever sums a table.
 */
export async function up(db: Knex): Promise<void> {
  for (const table of ['tasks', 'posts', 'agents', 'users']) {
    await db.schema.alterTable(table, (t) => {
      t.bigInteger('stored_bytes').notNullable().defaultTo(0);
    });
  }
  // Existing rows, measured by the database. PostgreSQL writes jsonb back with a space after each
  // `:` and `,`, so its figures are a little above what the service would measure: never below.
  const postgres = db.client.dialect === 'postgresql';
  const text = (column: string) =>
    postgres
      ? `coalesce(octet_length(to_jsonb(${column})::text), 0)`
      : `(case when ${column} is null then 0 else length(cast(json_quote(${column}) as blob)) end)`;
  const json = (column: string) => (postgres ? `coalesce(octet_length(${column}::text), 0)` : `coalesce(length(cast(${column} as blob)), 0)`);
  await db.raw(`update tasks set stored_bytes = ${[text('title'), text('description'), json('input'), json('result'), text('error')].join(' + ')}`);
  await db.raw(`update posts set stored_bytes = ${text('title')} + ${text('body')}`);
  await db.raw('update agents set stored_bytes = (select coalesce(sum(tasks.stored_bytes), 0) from tasks where tasks.agent_id = agents.id)');
  await db.raw(`update users set stored_bytes =
    (select coalesce(sum(agents.stored_bytes), 0) from agents where agents.owner_id = users.id)
    + (select coalesce(sum(posts.stored_bytes), 0) from posts where posts.user_id = users.id)`);
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['users', 'agents', 'posts', 'tasks']) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('stored_bytes');
    });
  }
}
