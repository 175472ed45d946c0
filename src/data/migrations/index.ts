import type { Knex } from 'knex';
import * as initialSchema from './001-initial-schema';
import * as posts from './002-posts';
import * as oauth from './003-oauth';
import * as sessions from './004-sessions';
import * as quotas from './005-quotas';
import * as agentKeys from './006-agent-keys';
import * as taskLeases from './007-task-leases';
import * as events from './008-events';
import * as webhooks from './009-webhooks';
import * as idempotencyKeys from './010-idempotency-keys';
import * as attemptsLogsUsage from './011-attempts-logs-usage';
import * as statsFigures from './012-stats-figures';
import * as lighterWrites from './013-lighter-writes';
import * as steering from './014-steering';
import * as deferredTasks from './015-deferred-tasks';
import * as workspaces from './016-workspaces';
import * as auditEvents from './017-audit-events';

type Migration = { up: (db: Knex) => Promise<void>; down: (db: Knex) => Promise<void> };

// Listed in code rather than read from a folder, so the same list runs from src/ and dist/.
const migrations: Array<[string, Migration]> = [
  ['001-initial-schema', initialSchema],
  ['002-posts', posts],
  ['003-oauth', oauth],
  ['004-sessions', sessions],
  ['005-quotas', quotas],
  ['006-agent-keys', agentKeys],
  ['007-task-leases', taskLeases],
  ['008-events', events],
  ['009-webhooks', webhooks],
  ['010-idempotency-keys', idempotencyKeys],
  ['011-attempts-logs-usage', attemptsLogsUsage],
  ['012-stats-figures', statsFigures],
  ['013-lighter-writes', lighterWrites],
  ['014-steering', steering],
  ['015-deferred-tasks', deferredTasks],
  ['016-workspaces', workspaces],
  ['017-audit-events', auditEvents],
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations.map(([, migration]) => migration),
  getMigrationName: (migration) => migrations.find(([, m]) => m === migration)?.[0] ?? 'unknown',
  getMigration: async (migration) => migration,
};
