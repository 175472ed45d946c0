import { randomUUID } from 'node:crypto';
import { createStore } from '../../src/data/store';
import { createFiguresCache, readAttemptFigures } from '../../src/domain/attempt-figures';
import { createRandom } from '../support/fuzzer/random';
import { describeEachDatabase } from '../support/harness';

const MINUTE = 60_000;

/** The nearest-rank percentile, computed the plain way: sort everything, take the rank. */
const nearestRank = (values: number[], fraction: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? null;
};

const nearlyOrNull = (value: number | null) => (value === null ? null : expect.closeTo(value, 2));

describeEachDatabase('attempt figures from settled buckets', (get) => {
  // A fixed walk (a seeded generator), so that a failure replays.
  const random = createRandom(11);
  const next = (below: number) => random.int(0, below - 1);

  /** An agent with `n` tasks, each leased once at a time in the last `spanMs` and ended (or not) some seconds later. */
  async function seedLeases(n: number, spanMs: number, now: number) {
    const db = get().database.db;
    const owner = get().user.user.id;
    const agentId = randomUUID();
    const iso = (ms: number) => new Date(ms).toISOString();
    // In its owner's personal workspace, whose id is the owner's.
    await db('agents').insert({ id: agentId, owner_id: owner, workspace_id: owner, name: 'figures', type: 'type_a', status: 'idle', created_at: iso(now - spanMs - MINUTE), updated_at: iso(now) });
    const outcomes = ['succeeded', 'succeeded', 'succeeded', 'failed', 'expired', 'released', 'cancelled', null] as const;
    for (let i = 0; i < n; i++) {
      const leasedAt = now - 1_000 - next(spanMs);
      const waitMs = next(600_000);
      const outcome = outcomes[next(outcomes.length)] ?? null;
      const endedAt = outcome === null ? null : Math.min(now - 500, leasedAt + 1 + next(300_000));
      const taskId = randomUUID();
      await db('tasks').insert({
        id: taskId, agent_id: agentId, title: `task ${i}`, status: outcome === null ? 'running' : 'succeeded', priority: 5, created_at: iso(leasedAt - waitMs), updated_at: iso(leasedAt),
        available_at: iso(leasedAt - waitMs), max_attempts: 3, attempts: 1, stored_bytes: 0,
      });
      await db('leases').insert({
        id: randomUUID(), agent_id: agentId, task_id: taskId, status: outcome === null ? 'active' : 'completed', ttl_seconds: 600, expires_at: iso(now + 600_000), created_at: iso(leasedAt),
        ended_at: endedAt === null ? null : iso(endedAt), number: 1, outcome, wait_ms: waitMs,
      });
    }
    return agentId;
  }

  /** The figures as the database's rows say, computed without buckets. */
  async function plainFigures(agentId: string, since: number, at: number) {
    const rows = await get().database.db('leases').where({ agent_id: agentId }).select('created_at', 'ended_at', 'outcome', 'wait_ms');
    const ms = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));
    const inWindow = (value: unknown) => value !== null && ms(value) >= since && ms(value) <= at;
    const waits = rows.filter((row) => inWindow(row.created_at)).map((row) => Number(row.wait_ms) / 1000);
    const ended = rows.filter((row) => row.outcome !== null && inWindow(row.ended_at));
    const runs = ended.filter((row) => row.outcome === 'succeeded' || row.outcome === 'failed').map((row) => (ms(row.ended_at) - ms(row.created_at)) / 1000);
    const outcomes: Record<string, number> = {};
    for (const row of ended) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + 1;
    return { wait: { p50: nearestRank(waits, 0.5), p95: nearestRank(waits, 0.95) }, run: { p50: nearestRank(runs, 0.5), p95: nearestRank(runs, 0.95) }, outcomes };
  }

  const close = (figures: Awaited<ReturnType<typeof plainFigures>>) => ({
    ...figures,
    // Run times are differences of timestamps: the databases' arithmetic may differ in the last digits.
    run: { p50: nearlyOrNull(figures.run.p50), p95: nearlyOrNull(figures.run.p95) },
  });

  it('when leases were made and ended over the window, then a warm instance, a cold one and a plain count all agree, as the window moves on', async () => {
    const now = Date.now();
    const agentId = await seedLeases(300, 3_600_000, now);
    const store = createStore(get().database.db);
    const warm = createFiguresCache();
    const window = (at: number) => ({ since: at - 3_600_000, at, ms: MINUTE, settleMs: MINUTE });
    const first = await readAttemptFigures(store, warm, 'k', agentId, window(now));
    expect(first).toEqual(close(await plainFigures(agentId, now - 3_600_000, now)));
    expect(warm.entries.get('k')?.buckets.size).toBeGreaterThan(40);
    // Later reads: the window has moved on by a few seconds and by a few minutes; the settled buckets come from the cache.
    for (const later of [now + 5_000, now + 3 * MINUTE + 17_000]) {
      const fromCache = await readAttemptFigures(store, warm, 'k', agentId, window(later));
      const fresh = await readAttemptFigures(store, createFiguresCache(), 'k', agentId, window(later));
      expect(fromCache).toEqual(fresh);
      expect(fromCache).toEqual(close(await plainFigures(agentId, later - 3_600_000, later)));
    }
  });

  it('when nothing happened in the window, then the percentiles are null and no outcome is counted', async () => {
    const now = Date.now();
    const agentId = await seedLeases(0, 3_600_000, now);
    const figures = await readAttemptFigures(createStore(get().database.db), createFiguresCache(), 'k', agentId, { since: now - 3_600_000, at: now, ms: MINUTE, settleMs: MINUTE });
    expect(figures).toEqual({ wait: { p50: null, p95: null }, run: { p50: null, p95: null }, outcomes: {} });
  });

  it('when the cache is bounded, then the agents read longest ago go first and their figures are read again alike', async () => {
    const now = Date.now();
    const a = await seedLeases(60, 3_600_000, now);
    const b = await seedLeases(60, 3_600_000, now);
    const store = createStore(get().database.db);
    // Room for one agent of 60 leases (its values, about 170 with their merge), not two.
    const small = createFiguresCache(250);
    const window = { since: now - 3_600_000, at: now, ms: MINUTE, settleMs: MINUTE };
    const firstA = await readAttemptFigures(store, small, `a`, a, window);
    await readAttemptFigures(store, small, `b`, b, window);
    expect([...small.entries.keys()]).toEqual(['b']);
    expect(await readAttemptFigures(store, small, `a`, a, window)).toEqual(firstA);
  });
});
