import type { EndRow, TimeRange, WaitRow } from '../data/leases-repository';
import type { LeaseRecord } from '../data/records';
import type { Store } from '../data/store';

type Outcome = NonNullable<LeaseRecord['outcome']>;
type Outcomes = Partial<Record<Outcome, number>>;

/** The 50th and 95th percentiles of a duration in seconds; null when nothing was measured. */
export interface Percentiles {
  p50: number | null;
  p95: number | null;
}

/** An agent's attempts over a window: how they ended, how long tasks waited and ran. */
export interface AttemptFigures {
  /** Task creation to its first lease, for first leases made in the window. */
  wait: Percentiles;
  /** Lease to outcome, for attempts a worker ended (succeeded or failed) in the window. */
  run: Percentiles;
  /** Attempts that ended in the window, by outcome. */
  outcomes: Outcomes;
}

/** What one bucket of time holds: its waits and run times, ascending, and its ended attempts by outcome. */
interface BucketFigures {
  waits: Float64Array;
  runs: Float64Array;
  outcomes: Outcomes;
}

interface FiguresEntry {
  /** Every bucket below `through` that the window still covers, counted once and for all. */
  buckets: Map<number, BucketFigures>;
  through: number;
  /** The settled buckets from `from` to `through` merged, kept until the window moves on. */
  merged?: { from: number; through: number; figures: BucketFigures };
  /** The values it keeps, buckets and merge together. */
  size: number;
}

/**
 * The figures of buckets that have settled, per agent and window, kept by each instance: like the
 * events of an ended bucket, the leases made and ended in it never change, so a read asks the
 * database only for the buckets still open and the part of a bucket the window starts in. Bounded
 * by the number of values kept; the agents read longest ago go first.
 */
export interface FiguresCache {
  entries: Map<string, FiguresEntry>;
  /** The most waits and run times kept, over all entries. */
  limit: number;
  /** The waits and run times kept now. */
  size: number;
}

export const FIGURES_CACHE_VALUES = 1_000_000;

export function createFiguresCache(limit = FIGURES_CACHE_VALUES): FiguresCache {
  return { entries: new Map(), limit, size: 0 };
}


/** The value of rank `k` (from 0) among two ascending arrays taken together, without merging them. */
function kthOfTwo(a: ArrayLike<number>, b: ArrayLike<number>, k: number): number {
  // How many of the k + 1 smallest come from `a`: the least count whose next value of `a` is not below what `b` leaves.
  let low = Math.max(0, k + 1 - b.length);
  let high = Math.min(k + 1, a.length);
  while (low < high) {
    const fromA = Math.floor((low + high) / 2);
    const fromB = k + 1 - fromA;
    if ((a[fromA] as number) < (b[fromB - 1] as number)) low = fromA + 1;
    else high = fromA;
  }
  const fromB = k + 1 - low;
  const lastA = low > 0 ? (a[low - 1] as number) : -Infinity;
  const lastB = fromB > 0 ? (b[fromB - 1] as number) : -Infinity;
  return Math.max(lastA, lastB);
}

/** The nearest-rank percentiles (what PostgreSQL's percentile_disc answers) of two ascending arrays taken together. */
function percentilesOfTwo(a: ArrayLike<number>, b: ArrayLike<number>): Percentiles {
  const n = a.length + b.length;
  if (n === 0) return { p50: null, p95: null };
  const at = (fraction: number) => kthOfTwo(a, b, Math.max(0, Math.ceil(fraction * n) - 1));
  return { p50: at(0.5), p95: at(0.95) };
}

const ascending = (values: number[]): Float64Array => Float64Array.from(values).sort();

function addOutcomes(into: Outcomes, from: Outcomes): void {
  for (const [outcome, n] of Object.entries(from) as Array<[Outcome, number]>) into[outcome] = (into[outcome] ?? 0) + n;
}

/** Rows grouped into buckets of `ms`, each bucket's values ascending. */
function bucketsOf(waits: WaitRow[], ends: EndRow[], ms: number): Map<number, BucketFigures> {
  const raw = new Map<number, { waits: number[]; runs: number[]; outcomes: Outcomes }>();
  const bucketOf = (atMs: number) => {
    const bucket = Math.floor(atMs / ms);
    let found = raw.get(bucket);
    if (!found) raw.set(bucket, (found = { waits: [], runs: [], outcomes: {} }));
    return found;
  };
  for (const row of waits) bucketOf(row.atMs).waits.push(row.seconds);
  for (const row of ends) {
    const bucket = bucketOf(row.atMs);
    bucket.outcomes[row.outcome] = (bucket.outcomes[row.outcome] ?? 0) + 1;
    if (row.outcome === 'succeeded' || row.outcome === 'failed') bucket.runs.push(row.seconds);
  }
  return new Map([...raw].map(([bucket, values]) => [bucket, { waits: ascending(values.waits), runs: ascending(values.runs), outcomes: values.outcomes }]));
}

function mergeBuckets(buckets: BucketFigures[]): BucketFigures {
  const outcomes: Outcomes = {};
  for (const bucket of buckets) addOutcomes(outcomes, bucket.outcomes);
  const concat = (pick: (bucket: BucketFigures) => Float64Array) => {
    const all = new Float64Array(buckets.reduce((n, bucket) => n + pick(bucket).length, 0));
    let offset = 0;
    for (const bucket of buckets) {
      all.set(pick(bucket), offset);
      offset += pick(bucket).length;
    }
    return all.sort();
  };
  return { waits: concat((bucket) => bucket.waits), runs: concat((bucket) => bucket.runs), outcomes };
}

const valuesOf = (figures: BucketFigures) => figures.waits.length + figures.runs.length;

/** Keeps the entry as the most recently read, then lets the entries read longest ago go until the values fit. */
function keep(cache: FiguresCache, key: string, entry: Omit<FiguresEntry, 'size'>): void {
  let size = entry.merged ? valuesOf(entry.merged.figures) : 0;
  for (const bucket of entry.buckets.values()) size += valuesOf(bucket);
  cache.size -= cache.entries.get(key)?.size ?? 0;
  cache.entries.delete(key);
  cache.entries.set(key, { ...entry, size });
  cache.size += size;
  for (const [oldest, kept] of cache.entries) {
    if (cache.size <= cache.limit) break;
    cache.size -= kept.size;
    cache.entries.delete(oldest);
  }
}

/**
 * The agent's attempt figures from `since` to `at`, the window cut into buckets of `ms` (whose
 * last holds `at`, and the one before the first holds `since`). A bucket is settled `settleMs`
 * after its end: later, no lease can still be made or ended in it.
 */
export async function readAttemptFigures(
  store: Store,
  cache: FiguresCache,
  key: string,
  agentId: string,
  window: { since: number; at: number; ms: number; settleMs: number },
): Promise<AttemptFigures> {
  const { since, at, ms, settleMs } = window;
  const first = Math.floor(since / ms) + 1;
  const settled = Math.max(first, Math.floor((at - settleMs) / ms));
  const cached = cache.entries.get(key);
  const readFrom = cached && cached.through > first ? Math.min(cached.through, settled) : first;
  const iso = (bucket: number) => new Date(bucket * ms).toISOString();
  // The part of a bucket the window starts in, and every bucket not yet counted.
  const ranges: TimeRange[] = [{ from: new Date(since).toISOString(), to: iso(first) }, { from: iso(readFrom) }];
  const [waits, ends] = await Promise.all([store.leases.waitsIn(agentId, ranges), store.leases.endsIn(agentId, ranges)]);
  const read = bucketsOf(waits, ends, ms);

  const buckets = new Map<number, BucketFigures>();
  for (const [bucket, figures] of cached?.buckets ?? []) if (bucket >= first && bucket < readFrom) buckets.set(bucket, figures);
  const unsettled: BucketFigures[] = [];
  for (const [bucket, figures] of read) {
    if (bucket >= readFrom && bucket < settled) buckets.set(bucket, figures);
    else unsettled.push(figures);
  }
  let merged = cached?.merged;
  if (!merged || merged.from !== first || merged.through !== settled) {
    merged = { from: first, through: settled, figures: mergeBuckets([...buckets.values()]) };
  }
  keep(cache, key, { buckets, through: settled, merged });

  const rest = mergeBuckets(unsettled);
  const outcomes: Outcomes = {};
  addOutcomes(outcomes, merged.figures.outcomes);
  addOutcomes(outcomes, rest.outcomes);
  return { wait: percentilesOfTwo(merged.figures.waits, rest.waits), run: percentilesOfTwo(merged.figures.runs, rest.runs), outcomes };
}
