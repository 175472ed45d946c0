import type { Knex } from 'knex';
import type { Filter, FilterOp, ListQuery, ListResult } from './list-query';
import { invalidCursor, invalidValue } from '../errors';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';

/** How a column compares: the filter value is normalised to the stored form before binding. */
export type ColumnKind = 'text' | 'time' | 'integer';

/** The columns a collection may be filtered and sorted on; nothing else ever reaches SQL. */
export type ColumnAllowList = Readonly<Record<string, ColumnKind>>;

/**
 * How much room a row's item takes in an answer: `column` holds the bytes of its large fields as
 * JSON (maintained by every write), `fixedBytes` bounds the rest of it.
 */
export interface ItemSize {
  column: string;
  fixedBytes: number;
}

/** What an envelope (`{data: [...], meta: {...}}`) adds around the items of a page, at most. */
const PAGE_OVERHEAD_BYTES = 256;

const OPERATORS: Record<Exclude<FilterOp, 'in' | 'contains'>, string> = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A LIKE pattern matching `text` anywhere, its wildcards escaped with `\`. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`;

/**
 * Applies filters, order and one page window to `base` (already scoped to what the caller may
 * see) and runs it. Rows come back raw: the repository maps them.
 *
 * Cursor pages are keyset pages on (sort column, id): stable while items are added. Sorting by
 * `created_at` orders by id alone, since ids are time-ordered UUIDv7: a cursor then stays valid
 * even after its item is deleted.
 *
 * With `size`, cursor and offset windows that carry a byte budget stop before the item that would
 * exceed it (see takeWithinBudget).
 */
export async function runListQuery(
  base: Knex.QueryBuilder,
  query: ListQuery,
  columns: ColumnAllowList,
  size?: ItemSize,
): Promise<ListResult<Record<string, unknown>>> {
  const filtered = base.clone();
  for (const filter of query.filters) {
    const kind = columnKind(columns, filter.field);
    if (filter.op === 'in') {
      filtered.whereIn(filter.field, String(filter.value).split(',').map((value) => toStored(kind, value, filter)));
    } else if (filter.op === 'contains') {
      // SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE that of every letter.
      filtered.whereRaw(`?? ${base.client.dialect === 'postgresql' ? 'ilike' : 'like'} ? escape '\\'`, [filter.field, containing(String(filter.value))]);
    } else {
      filtered.where(filter.field, OPERATORS[filter.op], toStored(kind, filter.value, filter));
    }
  }

  const byId = query.sort.field === 'created_at' || query.sort.field === 'id';
  const sortColumn = byId ? 'id' : query.sort.field;
  if (!byId) columnKind(columns, sortColumn);
  const direction = query.sort.descending ? 'desc' : 'asc';
  const ordered = filtered.clone().orderBy(byId ? [{ column: 'id', order: direction }] : [
    { column: sortColumn, order: direction },
    { column: 'id', order: direction },
  ]);

  const { window } = query;
  switch (window.kind) {
    case 'offset': {
      ordered.offset(window.skip);
      if (size && window.maxBytes !== undefined) {
        return { items: (await takeWithinBudget(filtered, ordered, window.limit, window.maxBytes, size)).rows, hasMore: false };
      }
      return { items: await ordered.limit(window.limit), hasMore: false };
    }
    case 'page': {
      const [count] = await filtered.clone().clearSelect().count({ n: '*' });
      const items = await ordered.offset((window.page - 1) * window.limit).limit(window.limit);
      return { items, hasMore: window.page * window.limit < Number(count?.n ?? 0), total: Number(count?.n ?? 0) };
    }
    case 'cursor': {
      if (window.after !== undefined) await applyKeyset(ordered, base, window.after, sortColumn, byId, query.sort.descending);
      if (size && window.maxBytes !== undefined) {
        const { rows, more } = await takeWithinBudget(filtered, ordered, window.limit, window.maxBytes, size);
        return { items: rows, hasMore: more };
      }
      const rows = await ordered.limit(window.limit + 1);
      return { items: rows.slice(0, window.limit), hasMore: rows.length > window.limit };
    }
  }
}

type Row = Record<string, unknown>;
type PageShape = 'offset' | 'first' | 'after';
type PageQuery = CompiledQuery<'scope' | 'after' | 'limit' | 'skip', Row[]>;

/** The pages of a collection that most lists ask for, each compiled by knex once. */
export interface IdPages {
  /**
   * The page runListQuery would answer, when `query` is one of these shapes: no filters, sorted by
   * id (or by `created_at`, which orders by id), an offset window or a cursor one. Undefined for
   * every other query, which runListQuery answers.
   */
  run(executor: Executor, query: ListQuery, scope?: string): Promise<ListResult<Row> | undefined>;
}

/** Confines a query to the rows of one scope, whose value is bound at each run. */
export type ScopeRows = (query: Knex.QueryBuilder, scope: string) => void;

/** The rows whose `column` is the scope. */
export const scopedBy =
  (column: string): ScopeRows =>
  (query, scope) =>
    void query.where({ [column]: scope });

/**
 * The common pages of `table` (their rows with `columns`), optionally confined to the rows of a
 * scope (`scope` applies it). For collections without a byte budget per item: runListQuery
 * ignores `maxBytes` for them too.
 */
export function compileIdPages(db: Knex, table: string, columns: readonly string[], scope: ScopeRows): IdPages {
  const pages = new Map<string, PageQuery>();
  const key = (scoped: boolean, descending: boolean, shape: PageShape) => `${scoped}:${descending}:${shape}`;
  for (const scoped of [false, true]) {
    for (const descending of [false, true]) {
      for (const shape of ['offset', 'first', 'after'] as const) {
        const page: PageQuery = compileQuery(db, (parameters) => {
          const query = db(table).select(columns);
          if (scoped) scope(query, parameters.value('scope'));
          if (shape === 'after') query.where('id', descending ? '<' : '>', parameters.value('after'));
          query.orderBy([{ column: 'id', order: descending ? 'desc' : 'asc' }]).limit(parameters.integer('limit'));
          if (shape === 'offset') query.offset(parameters.integer('skip'));
          return query;
        });
        pages.set(key(scoped, descending, shape), page);
      }
    }
  }
  const pageOf = (scope: string | undefined, query: ListQuery, shape: PageShape) => pages.get(key(scope !== undefined, query.sort.descending, shape)) as PageQuery;
  return {
    async run(executor, query, scope) {
      if (query.filters.length > 0 || (query.sort.field !== 'created_at' && query.sort.field !== 'id')) return undefined;
      const { window } = query;
      switch (window.kind) {
        case 'offset':
          return { items: await pageOf(scope, query, 'offset').run(executor, { scope, after: undefined, limit: window.limit, skip: window.skip }), hasMore: false };
        case 'cursor': {
          if (window.after !== undefined && !isId(window.after)) throw invalidCursor();
          const shape = window.after === undefined ? 'first' : 'after';
          const rows = await pageOf(scope, query, shape).run(executor, { scope, after: window.after, limit: window.limit + 1, skip: undefined });
          return { items: rows.slice(0, window.limit), hasMore: rows.length > window.limit };
        }
        case 'page':
          return undefined;
      }
    },
  };
}

async function applyKeyset(
  query: Knex.QueryBuilder,
  base: Knex.QueryBuilder,
  after: string,
  sortColumn: string,
  byId: boolean,
  descending: boolean,
): Promise<void> {
  if (!isId(after)) throw invalidCursor();
  const beyond = descending ? '<' : '>';
  if (byId) {
    query.where('id', beyond, after);
    return;
  }
  // The cursor item's own sort value places the page; it must be an item of this collection.
  const anchor = await base.clone().clearSelect().select(sortColumn).where({ id: after }).first();
  if (!anchor) throw invalidCursor();
  const value = anchor[sortColumn];
  query.where((keyset) => {
    keyset.where(sortColumn, beyond, value).orWhere((tie) => tie.where(sortColumn, value).andWhere('id', beyond, after));
  });
}

/**
 * The first rows of `ordered`, at most `limit`, that fit in `maxBytes` (the first always does).
 * Their sizes are read first (an id and a number each) and only the rows that fit are loaded, so
 * a page of large items never holds much more than the budget in memory either. The loaded rows'
 * own sizes are checked again: one that grew in between ends the page there. `more` says that
 * rows were left out, by the budget or by `limit`.
 */
async function takeWithinBudget(
  filtered: Knex.QueryBuilder,
  ordered: Knex.QueryBuilder,
  limit: number,
  maxBytes: number,
  size: ItemSize,
): Promise<{ rows: Array<Record<string, unknown>>; more: boolean }> {
  const sizes: Array<{ id: string; bytes: unknown }> = await ordered.clone().clearSelect().select('id', { bytes: size.column }).limit(limit + 1);
  const fitting = fitBudget(sizes, limit, maxBytes, size.fixedBytes);
  if (fitting.length === 0) return { rows: [], more: false };
  const loaded: Array<Record<string, unknown>> = await filtered.clone().whereIn('id', fitting.map((row) => row.id));
  const byId = new Map(loaded.map((row) => [String(row.id), row]));
  const present = fitting.map((row) => byId.get(row.id)).filter((row): row is Record<string, unknown> => row !== undefined);
  const rows = fitBudget(present.map((row) => ({ row, bytes: row[size.column] })), limit, maxBytes, size.fixedBytes).map(({ row }) => row);
  return { rows, more: rows.length < present.length || sizes.length > fitting.length };
}

/** The leading entries, at most `limit`, whose sizes add up to no more than the budget; never none. */
function fitBudget<T extends { bytes: unknown }>(entries: T[], limit: number, maxBytes: number, fixedBytes: number): T[] {
  let used = PAGE_OVERHEAD_BYTES;
  const fitting: T[] = [];
  for (const entry of entries.slice(0, limit)) {
    // One more byte each for the comma between items.
    used += Number(entry.bytes ?? 0) + fixedBytes + 1;
    if (used > maxBytes && fitting.length > 0) break;
    fitting.push(entry);
  }
  return fitting;
}

function columnKind(columns: ColumnAllowList, field: string): ColumnKind {
  const kind = columns[field];
  if (!kind) throw new Error(`"${field}" is not a listable column here: api.yaml and the repository disagree`);
  return kind;
}

/** Timestamps are stored as ISO 8601 UTC text with milliseconds (SQLite) or timestamptz (pg). */
function toStored(kind: ColumnKind, value: string | number, filter: Filter): string | number {
  if (kind === 'integer') return Number(value);
  if (kind === 'time') return toInstant(String(value), filter);
  return String(value);
}

/**
 * A date-time that names a real instant both databases can hold. RFC 3339 allows a leap second
 * (`23:59:60`) and the year 0000, which no JavaScript Date or PostgreSQL timestamp represents.
 */
function toInstant(value: string, filter: Filter): string {
  const time = new Date(value);
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 1 || year > 9999) {
    const field = `filter[${filter.field}][${filter.op}]`;
    throw invalidValue(`${field} is not an instant between the years 0001 and 9999`, [{ field, in: 'query', message: 'must be a real instant between the years 0001 and 9999' }]);
  }
  return time.toISOString();
}

/**
 * The newest `perGroup` rows of each group (`include=` embeds), in one query: a window function
 * ranks each group's rows by id (time-ordered), newest first. Only `columns` are read: embeds are
 * summaries, and the large columns never leave the database for them.
 */
export async function newestPerGroup(
  db: Knex | Knex.Transaction,
  table: string,
  groupColumn: string,
  groupIds: readonly string[],
  perGroup: number,
  columns: readonly string[],
): Promise<Map<string, Array<Record<string, unknown>>>> {
  const byGroup = new Map<string, Array<Record<string, unknown>>>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const ranked = db(table)
    .select([...new Set([...columns, 'id', groupColumn])])
    .select(db.raw('row_number() over (partition by ?? order by id desc) as position', [groupColumn]))
    .whereIn(groupColumn, groupIds);
  const rows: Array<Record<string, unknown>> = await db.select('*').from(ranked.as('ranked')).where('position', '<=', perGroup).orderBy('id', 'desc');
  for (const row of rows) byGroup.get(String(row[groupColumn]))?.push(row);
  return byGroup;
}
