/**
 * A second process on one SQLite file, for test/data/sqlite-writers.test.ts. Started as
 * `node --import tsx test/support/sqlite-writer.ts <file> <user id> <count>`, it opens the file as the
 * service does, prints `ready`, waits for a line on stdin, then creates `count` agents for the user
 * the way POST /agents does (a transaction that reads the owner and their agent count, then writes),
 * and prints what happened as one JSON line: `{ created, failures }`.
 */
import { once } from 'node:events';
import { DEFAULT_DATABASE_LIMITS } from '../../src/data/database';
import { connectDatabase } from '../../src/data/database';
import { createStore } from '../../src/data/store';
import { createAgent } from '../../src/domain/agents';

async function main(): Promise<void> {
  const [filename = '', userId = '', count = '0'] = process.argv.slice(2);
  const db = await connectDatabase({ client: 'sqlite', filename, limits: { ...DEFAULT_DATABASE_LIMITS, busyTimeoutMs: 10_000 } });
  try {
    const store = createStore(db);
    const user = await store.users.find(userId);
    if (!user) throw new Error(`no user ${userId}`);
    process.stdout.write('ready\n');
    await once(process.stdin, 'data');
    const quotas = { agentsPerUser: 1_000_000, tasksPerAgent: 0, storedBytesPerUser: 0 };
    let created = 0;
    const failures: string[] = [];
    for (let i = 0; i < Number(count); i++) {
      try {
        await createAgent(store, { kind: 'user', user }, { name: `writer ${process.pid} ${i}`, type: 'type_a' }, quotas);
        created += 1;
      } catch (error) {
        failures.push(String((error as { code?: unknown }).code ?? error));
      }
    }
    process.stdout.write(`${JSON.stringify({ created, failures })}\n`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
