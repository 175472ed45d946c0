import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { describeWithPostgres } from '../support/harness';
import { jsonCaller, killServers, listeningPort, serviceEnv, spawnServer, type ServerProcess } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';

const API_KEY = 'schedules-instances-key-0123456789abcdef';
const INTERVAL_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const call = jsonCaller(API_KEY);

interface Made {
  id: string;
  created_at: number;
}

/** The tasks each schedule made, oldest first, each with its creation instant. */
async function tasksBySchedule(db: Knex, scheduleIds: string[]): Promise<Map<string, Made[]>> {
  const rows: Array<{ id: string; schedule_id: string; created_at: Date | string }> = await db('tasks').whereIn('schedule_id', scheduleIds).select('id', 'schedule_id', 'created_at').orderBy('created_at');
  const made = new Map<string, Made[]>(scheduleIds.map((id) => [id, []]));
  for (const row of rows) made.get(row.schedule_id)?.push({ id: row.id, created_at: new Date(row.created_at).getTime() });
  return made;
}

/**
 * The firing slot each task falls in: a firing is made at or after its time and reckons the next
 * from then, so two tasks of one schedule in one slot would be one firing made twice.
 */
const slotsOf = (tasks: Made[], anchor: number, period: number) => tasks.map((task) => Math.floor((task.created_at - anchor) / period));
const duplicated = (slots: number[]) => slots.filter((slot, index) => slots.indexOf(slot) !== index);

describeWithPostgres('schedules fired by several service processes on one PostgreSQL database', () => {
  let admin: Knex;
  let db: Knex;
  let schema: string;
  const servers: ServerProcess[] = [];
  const start = async (url: string) => {
    const server = spawnServer(serviceEnv(API_KEY, { DATABASE_URL: url, RATE_LIMIT_API_MAX: '1000000', SCHEDULE_POLL_MS: '100' }));
    servers.push(server);
    return { server, port: await listeningPort(server) };
  };

  beforeEach(async () => {
    schema = `test_schedules_${randomBytes(5).toString('hex')}`;
    admin = knex({ client: 'pg', connection: PG_TEST_URL });
    await admin.raw('create schema ??', [schema]);
    db = knex({ client: 'pg', connection: PG_TEST_URL, searchPath: [schema] });
  });
  afterEach(async () => {
    await killServers(...servers.splice(0));
    await db.destroy();
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  });

  it('when three processes poll one-second schedules, then each firing makes one task; when all stop and one comes back, the missed firings make one task', async () => {
    const url = `${PG_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const [first, second, third] = await Promise.all([start(url), start(url), start(url)]);
    const port = first!.port;

    // Two agents, two one-second schedules each, and an every-minute cron: firings race on agents and on schedules.
    const intervals: Array<{ id: string; created_at: string }> = [];
    const agents: string[] = [];
    for (const name of ['north', 'south']) {
      const agent = await call(port, 'POST', '/api/v1/agents', { name, type: 'type_a' });
      expect(agent.status).toBe(201);
      agents.push(agent.body.data.id);
      for (const n of [1, 2]) {
        const made = await call(port, 'POST', `/api/v1/agents/${agent.body.data.id}/schedules`, { interval_seconds: INTERVAL_MS / 1000, overlap: 'allow', template: { title: `${name} ${n}` } });
        expect(made.status).toBe(201);
        intervals.push(made.body.data);
      }
    }
    const cron = await call(port, 'POST', `/api/v1/agents/${agents[0]}/schedules`, { cron: '* * * * *', overlap: 'allow', template: { title: 'every minute' } });
    expect(cron.status).toBe(201);
    const ids = [...intervals.map((schedule) => schedule.id), cron.body.data.id as string];
    const anchorOf = (id: string) => Date.parse(intervals.find((schedule) => schedule.id === id)?.created_at ?? '');

    // Six seconds with three processes, two with two of them.
    await sleep(4000);
    await killServers(third!.server);
    await sleep(2000);
    await killServers(first!.server, second!.server);
    const stoppedAt = Date.now();
    const running = await tasksBySchedule(db, ids);
    for (const schedule of intervals) {
      const slots = slotsOf(running.get(schedule.id) ?? [], anchorOf(schedule.id), INTERVAL_MS);
      expect({ schedule: schedule.id, duplicated: duplicated(slots) }).toEqual({ schedule: schedule.id, duplicated: [] });
      // Every slot from the first to the last had its task: none was missed while processes ran.
      expect(slots.length).toBeGreaterThanOrEqual(4);
      expect(slots.at(-1)! - slots[0]! + 1).toBe(slots.length);
    }

    // Nothing runs for three and a half intervals, then one process comes back.
    await sleep(3.5 * INTERVAL_MS - (Date.now() - stoppedAt));
    const back = await start(url);
    await back.server.waitForLog((line) => line.msg === 'schedules fired');
    await sleep(300);
    await killServers(back.server);
    const after = await tasksBySchedule(db, ids);
    for (const schedule of intervals) {
      const before = running.get(schedule.id) ?? [];
      const made = after.get(schedule.id) ?? [];
      const catchUp = made.slice(before.length);
      expect(made.slice(0, before.length)).toEqual(before);
      // One task for the firings missed while nothing ran, not one per missed firing: no second task in its slot.
      expect(catchUp.length).toBeGreaterThanOrEqual(1);
      const slots = slotsOf(made, anchorOf(schedule.id), INTERVAL_MS);
      expect({ schedule: schedule.id, duplicated: duplicated(slots) }).toEqual({ schedule: schedule.id, duplicated: [] });
      expect(slots[before.length]! - slots[before.length - 1]!).toBeGreaterThanOrEqual(4);
    }
    // The cron fired at most once a minute, whoever fired it.
    const minutes = (after.get(cron.body.data.id) ?? []).map((task) => Math.floor(task.created_at / 60_000));
    expect(duplicated(minutes)).toEqual([]);
    const rows: Array<{ id: string; next_run_at: Date | null }> = await db('schedules').whereIn('id', ids).select('id', 'next_run_at');
    expect(rows.filter((row) => row.next_run_at === null)).toEqual([]);
  }, 90_000);
});
