import { createAgentFleetClient } from '../../src/client';
import { createStore } from '../../src/data/store';
import { fireDueSchedules, nextRunAfter, type Timing } from '../../src/domain/schedules';
import { createLogger } from '../../src/logger';
import type { Schedule, Task } from '../../src/model';
import { describeEachDatabase, LogCapture, TEST_API_KEY, testConfig, type SignedInUser } from '../support/harness';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SCHEDULES_PER_AGENT = 3;
/** What the suite's owners may store: a template of 60,000 bytes fits a schedule, not a task. */
const STORED_BYTES_PER_USER = 50_000;
const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describeEachDatabase(
  'schedules',
  (get) => {
    const db = () => get().database.db;
    const owner = () => get().user;
    const fire = (at: string, logger = createLogger({ logLevel: 'silent' })) => fireDueSchedules(createStore(db()), { quotas: get().config.quotas, logger }, at);
    const newAgent = async (as: SignedInUser = owner()): Promise<string> => (await as.http.post('/api/v1/agents').send({ name: 'scheduler', type: 'type_a' }).expect(201)).body.data.id;
    const newSchedule = async (agentId: string, body: object = { cron: '*/5 * * * *', template: { title: 'report' } }, as: SignedInUser = owner()): Promise<Schedule> =>
      (await as.http.post(`/api/v1/agents/${agentId}/schedules`).send(body).expect(201)).body.data;
    const read = async (schedule: Pick<Schedule, 'agent_id' | 'id'>): Promise<Schedule> => (await owner().http.get(`/api/v1/agents/${schedule.agent_id}/schedules/${schedule.id}`).expect(200)).body.data;
    const tasksOf = async (agentId: string): Promise<Task[]> => (await owner().http.get(`/api/v1/agents/${agentId}/tasks?limit=100`).expect(200)).body.data;
    const countSchedules = async (agentId: string) => Number((await db()('schedules').where({ agent_id: agentId }).count({ n: '*' }).first())?.n);

    // Each test fires only its own schedules: none is left due for the next.
    afterEach(async () => {
      await db()('schedules').update({ paused: true, next_run_at: null });
    });

    describe('create, read, list, change, delete', () => {
      it('when a cron schedule is created through fetch, then 201 answers it with Location, its defaults and its first firing, and it reads back the same', async () => {
        const agentId = await newAgent();
        const base = await get().listen();
        const before = new Date().toISOString();
        const res = await fetch(`${base}/api/v1/agents/${agentId}/schedules`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner().token}`, 'content-type': 'application/json', 'x-request-id': 'schedule-create' },
          body: JSON.stringify({ cron: '30 9 * * MON-FRI', timezone: 'Europe/Paris', template: { title: 'Morning report', input: { since: 'yesterday' }, priority: 7 } }),
        });
        expect(res.status).toBe(201);
        const body = (await res.json()) as { data: Schedule; meta: { timestamp: string } };
        expect(res.headers.get('location')).toBe(`/api/v1/agents/${agentId}/schedules/${body.data.id}`);
        expect(res.headers.get('x-request-id')).toBe('schedule-create');
        expect(res.headers.get('ratelimit')).not.toBeNull();
        expect(body).toEqual({
          data: {
            id: expect.any(String),
            agent_id: agentId,
            name: null,
            cron: '30 9 * * MON-FRI',
            timezone: 'Europe/Paris',
            interval_seconds: null,
            template: { title: 'Morning report', input: { since: 'yesterday' }, priority: 7 },
            paused: false,
            overlap: 'skip',
            next_run_at: expect.stringMatching(ISO_MS),
            last_run_at: null,
            last_task_id: null,
            last_error: null,
            created_at: expect.stringMatching(ISO_MS),
            updated_at: expect.stringMatching(ISO_MS),
          },
          meta: { timestamp: expect.any(String) },
        });
        const next = body.data.next_run_at as string;
        expect(next > before).toBe(true);
        // 09:30 on a weekday in Paris, within the coming week.
        const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(next));
        expect(paris).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:30$/);
        expect(Date.parse(next) - Date.parse(before)).toBeLessThanOrEqual(4 * 86_400_000);

        const again = await fetch(`${base}${res.headers.get('location')}`, { headers: { authorization: `Bearer ${owner().token}` } });
        expect(again.status).toBe(200);
        expect(again.headers.get('cache-control')).toBe('private, no-cache');
        expect(((await again.json()) as { data: Schedule }).data).toEqual(body.data);
      });

      it('when an interval schedule is created, then it is in UTC with no cron, and it first fires one interval after its creation', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { name: 'heartbeat', interval_seconds: 90, overlap: 'allow', template: { title: 'ping', max_attempts: 1, timeout_seconds: 30 } });
        expect(schedule).toMatchObject({ name: 'heartbeat', cron: null, timezone: 'UTC', interval_seconds: 90, overlap: 'allow', paused: false, template: { title: 'ping', max_attempts: 1, timeout_seconds: 30 } });
        expect(schedule.next_run_at).toBe(addMs(schedule.created_at, 90_000));
        expect(await read(schedule)).toEqual(schedule);
      });

      it('when a schedule is created paused, then it has no next firing', async () => {
        const schedule = await newSchedule(await newAgent(), { cron: '0 * * * *', paused: true, template: { title: 'later' } });
        expect(schedule).toMatchObject({ paused: true, next_run_at: null });
      });

      it('when schedules are listed, then they come oldest first in cursor pages, with Cache-Control', async () => {
        const agentId = await newAgent();
        const made: Schedule[] = [];
        for (let i = 0; i < 3; i++) made.push(await newSchedule(agentId, { interval_seconds: 60 + i, template: { title: `s${i}` } }));
        const first = await owner().http.get(`/api/v1/agents/${agentId}/schedules?limit=2`).expect(200);
        expect(first.headers['cache-control']).toBe('private, no-cache');
        expect(first.body.data.map((schedule: Schedule) => schedule.id)).toEqual([made[0]!.id, made[1]!.id]);
        expect(first.body.meta).toEqual({ nextCursor: made[1]!.id, hasMore: true });
        const second = await owner().http.get(`/api/v1/agents/${agentId}/schedules?limit=2&cursor=${first.body.meta.nextCursor}`).expect(200);
        expect(second.body.data).toEqual([made[2]]);
        expect(second.body.meta).toEqual({ nextCursor: null, hasMore: false });
        const other = await owner().http.get(`/api/v1/agents/${await newAgent()}/schedules`).expect(200);
        expect(other.body).toEqual({ data: [], meta: { nextCursor: null, hasMore: false } });
      });

      it('when name, template and overlap change, then the timing and next firing stay and updated_at moves', async () => {
        const schedule = await newSchedule(await newAgent(), { cron: '15 * * * *', template: { title: 'old' } });
        const res = await owner().http.patch(`/api/v1/agents/${schedule.agent_id}/schedules/${schedule.id}`).send({ name: 'renamed', template: { title: 'new', description: 'd' }, overlap: 'allow' });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(res.body.data).toEqual({ ...schedule, name: 'renamed', template: { title: 'new', description: 'd' }, overlap: 'allow', updated_at: expect.stringMatching(ISO_MS) });
        expect(res.body.data.updated_at > schedule.updated_at).toBe(true);
        expect(await read(schedule)).toEqual(res.body.data);
      });

      it('when a cron schedule gets an interval, then its cron is cleared and its zone is UTC; given a cron again, its interval is cleared', async () => {
        const schedule = await newSchedule(await newAgent(), { cron: '0 9 * * *', timezone: 'Europe/Berlin', template: { title: 'switch' } });
        const path = `/api/v1/agents/${schedule.agent_id}/schedules/${schedule.id}`;
        const before = new Date().toISOString();
        const interval = (await owner().http.patch(path).send({ interval_seconds: 120 }).expect(200)).body.data as Schedule;
        expect(interval).toMatchObject({ cron: null, timezone: 'UTC', interval_seconds: 120 });
        // The phase of its creation: a multiple of the interval after created_at, the first after now.
        const next = Date.parse(interval.next_run_at as string);
        expect((next - Date.parse(schedule.created_at)) % 120_000).toBe(0);
        expect(next).toBeGreaterThan(Date.parse(before));
        expect(next - Date.parse(before)).toBeLessThanOrEqual(120_000);

        const cron = (await owner().http.patch(path).send({ cron: '0 9 * * *', timezone: 'Asia/Tokyo' }).expect(200)).body.data as Schedule;
        expect(cron).toMatchObject({ cron: '0 9 * * *', timezone: 'Asia/Tokyo', interval_seconds: null });
        expect(cron.next_run_at).toBe(nextRunAfter(cron, cron.updated_at));
        expect(new Date(cron.next_run_at as string).getUTCHours()).toBe(0);

        const zoned = (await owner().http.patch(path).send({ timezone: 'America/New_York' }).expect(200)).body.data as Schedule;
        expect(zoned).toMatchObject({ cron: '0 9 * * *', timezone: 'America/New_York', interval_seconds: null });
        expect([13, 14]).toContain(new Date(zoned.next_run_at as string).getUTCHours());
        expect(await read(schedule)).toEqual(zoned);
      });

      it('when a schedule is paused, then it has no next firing; resumed, its next firing is reckoned from now', async () => {
        const schedule = await newSchedule(await newAgent(), { interval_seconds: 3600, template: { title: 'hourly' } });
        const path = `/api/v1/agents/${schedule.agent_id}/schedules/${schedule.id}`;
        const paused = (await owner().http.patch(path).send({ paused: true }).expect(200)).body.data as Schedule;
        expect(paused).toMatchObject({ paused: true, next_run_at: null });
        // Firings it would have made while paused are not made.
        expect(await fire(addMs(schedule.created_at, 10 * 3_600_000))).toBe(0);
        const resumed = (await owner().http.patch(path).send({ paused: false }).expect(200)).body.data as Schedule;
        expect(resumed).toMatchObject({ paused: false, next_run_at: addMs(schedule.created_at, 3_600_000) });

        const cron = await newSchedule(await newAgent(), { cron: '*/10 * * * *', paused: true, template: { title: 'cron' } });
        const cronPath = `/api/v1/agents/${cron.agent_id}/schedules/${cron.id}`;
        const resumedCron = (await owner().http.patch(cronPath).send({ paused: false }).expect(200)).body.data as Schedule;
        expect(resumedCron.next_run_at).toBe(nextRunAfter(cron, resumedCron.updated_at));
        expect(new Date(resumedCron.next_run_at as string).getUTCMinutes() % 10).toBe(0);
        // Resuming what is not paused changes nothing of its timing.
        expect((await owner().http.patch(cronPath).send({ paused: false }).expect(200)).body.data.next_run_at).toBe(resumedCron.next_run_at);
      });

      it('when a schedule is deleted, then 204, it reads as missing, and deleting it again is 404', async () => {
        const schedule = await newSchedule(await newAgent());
        const path = `/api/v1/agents/${schedule.agent_id}/schedules/${schedule.id}`;
        const res = await owner().http.delete(path);
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        const missing = await owner().http.get(path).expect(404);
        expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Schedule not found' });
        await owner().http.delete(path).expect(404);
        await owner().http.patch(path).send({ name: 'x' }).expect(404);
      });

      it('when the same create is sent twice with one Idempotency-Key, then one schedule is made and the second answer is the first, replayed', async () => {
        const agentId = await newAgent();
        const send = () => owner().http.post(`/api/v1/agents/${agentId}/schedules`).set('Idempotency-Key', `schedule-${agentId}`).send({ interval_seconds: 600, template: { title: 'once' } });
        const first = await send();
        const again = await send();
        expect(first.status).toBe(201);
        expect(again.status).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.body.data).toEqual(first.body.data);
        expect(await countSchedules(agentId)).toBe(1);
      });
    });

    describe('the typed client', () => {
      it('when a schedule is driven through the generated client, then every call is typed and succeeds', async () => {
        const client = createAgentFleetClient({ baseUrl: await get().listen(), headers: { Authorization: `Bearer ${owner().token}` } });
        const agentId = await newAgent();
        const path = { agent_id: agentId };
        const created = await client.POST('/api/v1/agents/{agent_id}/schedules', { params: { path }, body: { cron: '0 6 * * 1', timezone: 'UTC', template: { title: 'weekly' } } });
        expect(created.response.status).toBe(201);
        const schedule = created.data!.data;
        expect(schedule).toMatchObject({ cron: '0 6 * * 1', interval_seconds: null });
        const item = { ...path, schedule_id: schedule.id };
        expect((await client.GET('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: item } })).data?.data).toEqual(schedule);
        expect((await client.GET('/api/v1/agents/{agent_id}/schedules', { params: { path } })).data?.data.map((found) => found.id)).toEqual([schedule.id]);
        const changed = await client.PATCH('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: item }, body: { interval_seconds: 300, overlap: 'allow' } });
        expect(changed.data?.data).toMatchObject({ cron: null, interval_seconds: 300, overlap: 'allow' });
        const refused = await client.POST('/api/v1/agents/{agent_id}/schedules', { params: { path }, body: { cron: '0 0 31 2 *', template: { title: 'never' } } });
        expect(refused.response.status).toBe(400);
        expect(refused.error).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'cron' }] } });
        expect((await client.DELETE('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: item } })).response.status).toBe(204);
        expect((await client.GET('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: item } })).response.status).toBe(404);
      });
    });

    describe('refusals', () => {
      const template = { title: 'bad' };
      it.each([
        ['a cron of six fields (seconds)', { cron: '0 0 9 * * *', template }, 'cron'],
        ['a cron of four fields', { cron: '0 9 * *   ', template }, 'cron'],
        ['a nickname', { cron: '@midnight', template }, 'cron'],
        ['a minute of 61', { cron: '61 * * * *', template }, 'cron'],
        ['a day of month of 0', { cron: '0 0 0 * *', template }, 'cron'],
        ['a month of 13', { cron: '0 0 1 13 *', template }, 'cron'],
        ['a step of 0', { cron: '*/0 * * * *', template }, 'cron'],
        ['an unknown day name', { cron: '0 9 * * FOO', template }, 'cron'],
        ['letters in the minute', { cron: 'x 9 * * *', template }, 'cron'],
        ['croner’s extension L', { cron: '0 0 L * *', template }, 'cron'],
        ['croner’s extension ?', { cron: '0 0 ? * *', template }, 'cron'],
        ['a cron that never fires (31 February)', { cron: '0 0 31 2 *', template }, 'cron'],
        ['an unknown time zone', { cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons', template }, 'timezone'],
        ['an offset for a time zone', { cron: '0 9 * * *', timezone: '+01:00', template }, 'timezone'],
        ['a template input over 64 KiB', { interval_seconds: 60, template: { title: 'big', input: { blob: 'x'.repeat(65_536) } } }, 'template/input'],
        ['both cron and interval_seconds', { cron: '0 9 * * *', interval_seconds: 60, template }, undefined],
        ['neither cron nor interval_seconds', { template }, undefined],
        ['a time zone with an interval', { interval_seconds: 60, timezone: 'UTC', template }, undefined],
        ['an interval of 0', { interval_seconds: 0, template }, undefined],
        ['an interval over 366 days', { interval_seconds: 31_622_401, template }, undefined],
        ['no template', { cron: '0 9 * * *' }, undefined],
        ['a template without a title', { cron: '0 9 * * *', template: { priority: 3 } }, undefined],
        ['a template with run_at', { cron: '0 9 * * *', template: { title: 't', run_at: '2031-01-01T00:00:00.000Z' } }, undefined],
        ['an unknown overlap', { cron: '0 9 * * *', overlap: 'queue', template }, undefined],
      ])('when a create has %s, then 400 VALIDATION_ERROR (naming the field) and nothing is written', async (_what, body, field) => {
        const agentId = await newAgent();
        const res = await owner().http.post(`/api/v1/agents/${agentId}/schedules`).set('X-Request-ID', 'bad-schedule').send(body);
        expect(res.status).toBe(400);
        expect(res.headers['x-request-id']).toBe('bad-schedule');
        expect(res.body).toEqual({ error: expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.any(String), requestId: 'bad-schedule' }) });
        if (field !== undefined) expect(res.body.error.details).toEqual([{ field, message: expect.any(String) }]);
        expect(await countSchedules(agentId)).toBe(0);
      });

      it.each([
        ['nothing', {}, undefined],
        ['both cron and interval_seconds', { cron: '0 9 * * *', interval_seconds: 60 }, undefined],
        ['a cron that never fires', { cron: '0 0 30 2 *' }, 'cron'],
        ['a cron of six fields', { cron: '0 0 9 * * *' }, 'cron'],
        ['an unknown time zone', { timezone: 'Nowhere/Atlantis' }, 'timezone'],
        ['a time zone for an interval schedule', { timezone: 'Europe/Paris' }, 'timezone'],
        ['a template input over 64 KiB', { template: { title: 'big', input: { blob: 'x'.repeat(65_536) } } }, 'template/input'],
      ])('when a change has %s, then 400 and the schedule is as it was', async (what, body, field) => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, what === 'a time zone for an interval schedule' ? { interval_seconds: 60, template: { title: 'kept' } } : { cron: '0 9 * * *', template: { title: 'kept' } });
        const res = await owner().http.patch(`/api/v1/agents/${agentId}/schedules/${schedule.id}`).send(body);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
        if (field !== undefined) expect(res.body.error.details).toEqual([{ field, message: expect.any(String) }]);
        expect(await read(schedule)).toEqual(schedule);
      });

      it('when another user reaches for this agent’s schedules, then every operation answers 404 Agent not found and nothing changes', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId);
        const stranger = await get().signUp();
        const path = `/api/v1/agents/${agentId}/schedules`;
        const answers = await Promise.all([
          stranger.http.get(path),
          stranger.http.post(path).send({ cron: '0 9 * * *', template: { title: 'theirs' } }),
          stranger.http.get(`${path}/${schedule.id}`),
          stranger.http.patch(`${path}/${schedule.id}`).send({ paused: true }),
          stranger.http.delete(`${path}/${schedule.id}`),
        ]);
        for (const res of answers) {
          expect(res.status).toBe(404);
          expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
        }
        expect(await read(schedule)).toEqual(schedule);
        expect(await countSchedules(agentId)).toBe(1);
      });

      it('when a schedule is asked for under another agent (both the caller’s), then 404 Schedule not found', async () => {
        const schedule = await newSchedule(await newAgent());
        const elsewhere = await newAgent();
        const res = await owner().http.get(`/api/v1/agents/${elsewhere}/schedules/${schedule.id}`).expect(404);
        expect(res.body.error.message).toBe('Schedule not found');
        await owner().http.delete(`/api/v1/agents/${elsewhere}/schedules/${schedule.id}`).expect(404);
        await owner().http.get(`/api/v1/agents/${elsewhere}/schedules/not-an-id`).expect(404);
      });

      it('when an agent key with tasks:read reads its agent’s schedules, then it may; writes are 403, another agent is 404, a key without tasks:read is 403', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId);
        const keyOf = async (scopes: string[]) => (await owner().http.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'k', scopes }).expect(201)).body.data.secret as string;
        const reader = await keyOf(['tasks:read', 'tasks:write']);
        const worker = await keyOf(['tasks:work']);
        const as = (key: string) => ({ 'X-API-Key': key });
        const path = `/api/v1/agents/${agentId}/schedules`;
        expect((await get().anonymous.get(path).set(as(reader)).expect(200)).body.data).toEqual([schedule]);
        expect((await get().anonymous.get(`${path}/${schedule.id}`).set(as(reader)).expect(200)).body.data).toEqual(schedule);
        for (const res of [
          await get().anonymous.post(path).set(as(reader)).send({ cron: '0 9 * * *', template: { title: 'mine' } }),
          await get().anonymous.patch(`${path}/${schedule.id}`).set(as(reader)).send({ paused: true }),
          await get().anonymous.delete(`${path}/${schedule.id}`).set(as(reader)),
          await get().anonymous.get(path).set(as(worker)),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body.error).toMatchObject({ code: 'FORBIDDEN' });
        }
        const elsewhere = await newAgent();
        expect((await get().anonymous.get(`/api/v1/agents/${elsewhere}/schedules`).set(as(reader))).status).toBe(404);
        expect(await read(schedule)).toEqual(schedule);
      });

      it('when an admin or a service key manages a user’s schedules, then they may', async () => {
        const agentId = await newAgent();
        const admin = await get().signUp({ role: 'admin' });
        const byAdmin = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'admin' } }, admin);
        const byService = await get().anonymous.post(`/api/v1/agents/${agentId}/schedules`).set('X-API-Key', TEST_API_KEY).send({ interval_seconds: 60, template: { title: 'service' } });
        expect(byService.status).toBe(201);
        await get().anonymous.delete(`/api/v1/agents/${agentId}/schedules/${byAdmin.id}`).set('X-API-Key', TEST_API_KEY).expect(204);
        await admin.http.get(`/api/v1/agents/${agentId}/schedules/${byService.body.data.id}`).expect(200);
      });

      it(`when an agent holds ${SCHEDULES_PER_AGENT} schedules, then one more is 409 CONFLICT and nothing is written; another agent is not concerned`, async () => {
        const agentId = await newAgent();
        for (let i = 0; i < SCHEDULES_PER_AGENT; i++) await newSchedule(agentId);
        const res = await owner().http.post(`/api/v1/agents/${agentId}/schedules`).send({ cron: '0 9 * * *', template: { title: 'one too many' } });
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'CONFLICT', message: `An agent holds at most ${SCHEDULES_PER_AGENT} schedules: delete one first` });
        expect(await countSchedules(agentId)).toBe(SCHEDULES_PER_AGENT);
        await newSchedule(await newAgent());
        const [first] = (await owner().http.get(`/api/v1/agents/${agentId}/schedules`).expect(200)).body.data as Schedule[];
        await owner().http.delete(`/api/v1/agents/${agentId}/schedules/${first!.id}`).expect(204);
        await newSchedule(agentId);
      });
    });

    describe('firing', () => {
      it('when a schedule is due, then one firing creates one task from its template, with schedule_id, at once; the same instant again creates nothing', async () => {
        const agentId = await newAgent();
        const template = { title: 'Nightly digest', description: 'From the schedule', input: { depth: 2, tags: ['a', 'b'] }, priority: 8, max_attempts: 5, timeout_seconds: 600 };
        const schedule = await newSchedule(agentId, { interval_seconds: 60, template });
        const at = schedule.next_run_at as string;
        expect(await fire(addMs(at, -1))).toBe(0);
        expect(await fire(at)).toBe(1);
        const tasks = await tasksOf(agentId);
        expect(tasks).toEqual([
          expect.objectContaining({ ...template, status: 'queued', schedule_id: schedule.id, run_at: null, attempts: 0, agent_id: agentId }),
        ]);
        expect(tasks[0]!.available_at <= new Date().toISOString()).toBe(true);
        expect(await read(schedule)).toEqual({ ...schedule, last_run_at: at, last_task_id: tasks[0]!.id, last_error: null, next_run_at: addMs(at, 60_000), updated_at: expect.stringMatching(ISO_MS) });
        expect(await fire(at)).toBe(0);
        expect(await tasksOf(agentId)).toHaveLength(1);
        const events = (await owner().http.get(`/api/v1/events?agent_id=${agentId}&types=task.created`).expect(200)).body.data;
        expect(events.map((event: { task_id: string }) => event.task_id)).toEqual([tasks[0]!.id]);
      });

      it('when five polls fire the same due schedule at once, then exactly one task is created', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { interval_seconds: 60, overlap: 'allow', template: { title: 'raced' } });
        const at = schedule.next_run_at as string;
        const fired = await Promise.all(Array.from({ length: 5 }, () => fire(at)));
        expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
        expect(await tasksOf(agentId)).toHaveLength(1);
      });

      it('when firings were missed for a long while, then one task catches them up and the next firing is in the future, in phase', async () => {
        const agentId = await newAgent();
        const interval = await newSchedule(agentId, { interval_seconds: 60, overlap: 'allow', template: { title: 'interval' } });
        const cron = await newSchedule(agentId, { cron: '0 * * * *', overlap: 'allow', template: { title: 'hourly' } });
        const at = addMs(cron.next_run_at as string, 5.5 * 3_600_000 + 7_000);
        expect(await fire(at)).toBe(2);
        const tasks = await tasksOf(agentId);
        expect(tasks.map((task) => task.title).sort()).toEqual(['hourly', 'interval']);
        const afterInterval = await read(interval);
        expect(afterInterval.next_run_at! > at).toBe(true);
        expect(Date.parse(afterInterval.next_run_at!) - Date.parse(at)).toBeLessThanOrEqual(60_000);
        expect((Date.parse(afterInterval.next_run_at!) - Date.parse(interval.created_at)) % 60_000).toBe(0);
        expect((await read(cron)).next_run_at).toBe(addMs(cron.next_run_at as string, 6 * 3_600_000));
        expect(await fire(at)).toBe(0);
      });

      it('when overlap is skip and the previous task is unfinished, then a firing creates nothing and says why; once it is finished, the next firing creates one', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'exclusive' } });
        const first = schedule.next_run_at as string;
        await fire(first);
        const [task] = await tasksOf(agentId);
        const second = addMs(first, 60_000);
        expect(await fire(second)).toBe(1);
        expect(await tasksOf(agentId)).toHaveLength(1);
        const skipped = await read(schedule);
        expect(skipped).toMatchObject({ last_task_id: task!.id, last_run_at: second, next_run_at: addMs(second, 60_000) });
        expect(skipped.last_error).toContain(task!.id);
        expect(skipped.last_error).toMatch(/still queued/);

        await owner().http.patch(`/api/v1/agents/${agentId}/tasks/${task!.id}`).send({ status: 'cancelled' }).expect(200);
        await fire(addMs(second, 60_000));
        const tasks = await tasksOf(agentId);
        expect(tasks).toHaveLength(2);
        expect(await read(schedule)).toMatchObject({ last_task_id: tasks[0]!.id, last_error: null });
      });

      it('when overlap is allow, then each firing creates a task whatever the previous one is doing', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { interval_seconds: 60, overlap: 'allow', template: { title: 'piled' } });
        for (let n = 0; n < 3; n++) await fire(addMs(schedule.next_run_at as string, n * 60_000));
        const tasks = await tasksOf(agentId);
        expect(tasks).toHaveLength(3);
        expect(tasks.every((task) => task.status === 'queued' && task.schedule_id === schedule.id)).toBe(true);
      });

      it('when the agent is paused, then a firing creates nothing, records why in last_error, and still moves on', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'refused' } });
        await owner().http.patch(`/agents/${agentId}`).send({ status: 'paused' }).expect(200);
        const at = schedule.next_run_at as string;
        expect(await fire(at)).toBe(1);
        expect(await tasksOf(agentId)).toEqual([]);
        expect(await read(schedule)).toMatchObject({ last_error: 'Agent is paused and accepts no new task', last_run_at: at, last_task_id: null, next_run_at: addMs(at, 60_000) });
        const events = (await owner().http.get(`/api/v1/events?agent_id=${agentId}&types=task.created`).expect(200)).body.data;
        expect(events).toEqual([]);

        await owner().http.patch(`/agents/${agentId}`).send({ status: 'idle' }).expect(200);
        await fire(addMs(at, 60_000));
        expect(await tasksOf(agentId)).toHaveLength(1);
        expect((await read(schedule)).last_error).toBeNull();
      });

      it('when the task would take its owner beyond the stored-bytes quota, then nothing of it is written and last_error says so', async () => {
        const user = await get().signUp();
        const agentId = await newAgent(user);
        const schedule = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'heavy', input: { blob: 'x'.repeat(60_000) } } }, user);
        const storedBefore = await db()('users').where({ id: user.user.id }).first('stored_bytes');
        expect(await fire(schedule.next_run_at as string)).toBe(1);
        expect(Number((await db()('tasks').where({ agent_id: agentId }).count({ n: '*' }).first())?.n)).toBe(0);
        expect(await db()('users').where({ id: user.user.id }).first('stored_bytes')).toEqual(storedBefore);
        const after = (await user.http.get(`/api/v1/agents/${agentId}/schedules/${schedule.id}`).expect(200)).body.data as Schedule;
        expect(after.last_error).toMatch(/^Quota exceeded/);
        expect(after.next_run_at).toBe(addMs(schedule.next_run_at as string, 60_000));
      });

      it('when one firing fails unexpectedly, then it is rolled back and logged, the schedule stays due, and the other schedules fire', async () => {
        const agentId = await newAgent();
        const broken = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'broken' } });
        const healthy = await newSchedule(await newAgent(), { interval_seconds: 60, template: { title: 'healthy' } });
        // A row no request can write: a template without a title breaks the task's insert.
        await db()('schedules').where({ id: broken.id }).update({ template: JSON.stringify({ title: null }) });
        const capture = new LogCapture();
        const at = addMs(healthy.next_run_at as string, 1000);
        expect(await fire(at, createLogger({ logLevel: 'info' }, capture))).toBe(1);
        expect(await tasksOf(healthy.agent_id)).toHaveLength(1);
        expect(await tasksOf(agentId)).toEqual([]);
        // Read from the store: its row breaks the declared shape of a Schedule.
        const after = await createStore(db()).schedules.find(agentId, broken.id);
        expect(after).toMatchObject({ next_run_at: broken.next_run_at, last_run_at: null, last_task_id: null, last_error: null, updated_at: broken.updated_at });
        expect(capture.lines).toEqual([expect.objectContaining({ level: 'error', msg: 'schedule firing failed', schedule_id: broken.id, agent_id: agentId, err: expect.any(String) })]);
      });

      it('when its agent is deleted, then its schedules go too; when a schedule is deleted, then the tasks it created stay with their schedule_id', async () => {
        const agentId = await newAgent();
        const schedule = await newSchedule(agentId, { interval_seconds: 60, template: { title: 'kept' } });
        await fire(schedule.next_run_at as string);
        const [task] = await tasksOf(agentId);
        await owner().http.delete(`/api/v1/agents/${agentId}/schedules/${schedule.id}`).expect(204);
        const kept = (await owner().http.get(`/api/v1/agents/${agentId}/tasks/${task!.id}`).expect(200)).body.data as Task;
        expect(kept.schedule_id).toBe(schedule.id);

        const doomed = await newAgent();
        await newSchedule(doomed);
        await newSchedule(doomed, { interval_seconds: 60, template: { title: 'doomed' } });
        await owner().http.delete(`/api/v1/agents/${doomed}`).expect(204);
        expect(await countSchedules(doomed)).toBe(0);
      });
    });
  },
  { quotas: { ...testConfig().quotas, schedulesPerAgent: SCHEDULES_PER_AGENT, storedBytesPerUser: STORED_BYTES_PER_USER } },
);

/** The instants a daily expression fires at, from `from`, one after another. */
function firings(timing: Timing, from: string, count: number): string[] {
  const runs: string[] = [];
  let at = from;
  for (let n = 0; n < count; n++) {
    at = nextRunAfter(timing, at) as string;
    runs.push(at);
  }
  return runs;
}

describe('when a schedule fires', () => {
  const daily = (cron: string, timezone = 'Europe/Berlin'): Timing => ({ cron, timezone, interval_seconds: null, created_at: '2026-01-01T00:00:00.000Z' });

  it('when a daily time in Europe/Berlin crosses the spring change (2026-03-29), then it fires once a day, at 03:00 local on the day 02:30 does not exist', () => {
    expect(firings(daily('30 2 * * *'), '2026-03-27T12:00:00.000Z', 3)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(firings(daily('0 9 * * *'), '2026-03-27T12:00:00.000Z', 3)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
    // A list of fixed hours is fixed too: the skipped time fires after the gap.
    expect(firings(daily('30 2,14 * * *'), '2026-03-28T20:00:00.000Z', 3)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T12:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('when a daily time in Europe/Berlin crosses the autumn change (2026-10-25), then 02:30, which comes twice that night, fires once', () => {
    expect(firings(daily('30 2 * * *'), '2026-10-23T12:00:00.000Z', 3)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(firings(daily('0 9 * * *'), '2026-10-23T12:00:00.000Z', 3)).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
    expect(firings(daily('30 2,14 * * *'), '2026-10-24T20:00:00.000Z', 3)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T13:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('when an hourly expression crosses either change, then it fires every real hour, none twice and none skipped', () => {
    expect(firings(daily('0 * * * *'), '2026-03-29T00:30:00.000Z', 3)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z', '2026-03-29T03:00:00.000Z']);
    expect(firings(daily('0 * * * *'), '2026-10-25T00:30:00.000Z', 3)).toEqual(['2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z']);
  });

  it('when day of month and day of week are both given, then either matches, as crontab reads them', () => {
    expect(firings(daily('0 0 1 * MON', 'UTC'), '2026-05-28T00:00:00.000Z', 3)).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-08T00:00:00.000Z', '2026-06-15T00:00:00.000Z']);
  });

  it('when a schedule runs at an interval, then it keeps the phase of its creation, strictly after the instant asked', () => {
    const timing: Timing = { cron: null, timezone: 'UTC', interval_seconds: 90, created_at: '2026-01-01T00:00:00.500Z' };
    expect(nextRunAfter(timing, '2026-01-01T00:00:00.500Z')).toBe('2026-01-01T00:01:30.500Z');
    expect(nextRunAfter(timing, '2026-01-01T00:01:30.500Z')).toBe('2026-01-01T00:03:00.500Z');
    expect(nextRunAfter(timing, '2026-01-01T10:00:00.000Z')).toBe('2026-01-01T10:00:00.500Z');
    expect(nextRunAfter(timing, '2025-12-31T00:00:00.000Z')).toBe('2026-01-01T00:01:30.500Z');
  });
});
