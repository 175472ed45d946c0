import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createStore } from '../../src/data/store';
import { newId, now } from '../../src/data/ids';
import { openTestDatabase, type TestDatabase } from '../support/harness';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const WRITERS = 3;
const AGENTS_EACH = 150;

interface Outcome {
  created: number;
  failures: string[];
}

/** One writer process (test/support/sqlite-writer.ts), resolved once it has opened the file. */
async function startWriter(filename: string, userId: string): Promise<{ go(): void; outcome: Promise<Outcome> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/sqlite-writer.ts', filename, userId, String(AGENTS_EACH)], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`writer exited before it was ready: ${err}`)));
  });
  const outcome = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`writer exited with ${String(code)}: ${err}`);
    return JSON.parse(out.slice('ready\n'.length)) as Outcome;
  });
  await ready;
  return { go: () => child.stdin.end('go\n'), outcome };
}

describe('SQLite writers in several processes on one file', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterAll(() => database.close());

  it(`when ${WRITERS} processes each create ${AGENTS_EACH} agents at once in read-then-write transactions, then none fails and every agent is there`, async () => {
    const timestamp = now();
    const user = await createStore(database.db).users.insert({
      id: newId(),
      name: 'Writer',
      email: `writer-${Date.now()}@example.test`,
      age: null,
      role: 'user',
      password_hash: null,
      created_at: timestamp,
      updated_at: timestamp,
    });
    const filename = (database.config as { filename: string }).filename;
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => startWriter(filename, user.id)));
    for (const writer of writers) writer.go();
    const outcomes = await Promise.all(writers.map((writer) => writer.outcome));
    expect(outcomes.flatMap((outcome) => outcome.failures)).toEqual([]);
    expect(outcomes.map((outcome) => outcome.created)).toEqual(Array(WRITERS).fill(AGENTS_EACH));
    const [row] = await database.db('agents').where({ owner_id: user.id }).count({ n: '*' });
    expect(Number(row?.n)).toBe(WRITERS * AGENTS_EACH);
  }, 120_000);
});
