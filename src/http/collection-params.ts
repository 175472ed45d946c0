import type { Filter, FilterOp, ListQuery, ListResult, Window } from '../domain/collection';

const MAX_CURSOR_LIMIT = 100;

/** The conventions surface's collection parameters, as the validator leaves them. */
export interface CollectionParams {
  cursor?: string;
  page?: number;
  limit?: number;
  status?: string;
  sort?: string;
  filter?: Record<string, Record<string, string | number> | undefined>;
}

/**
 * Turns validated query parameters into a ListQuery. api.yaml's enums and schemas are the
 * allow-lists: nothing reaches here that they did not accept.
 */
export function toListQuery(params: CollectionParams, windowKind: 'page' | 'cursor', defaultSort: string, maxBytes?: number): ListQuery {
  const sort = params.sort ?? defaultSort;
  // The specification caps cursor pages at 100 rather than refusing more; api.yaml says so.
  const limit = windowKind === 'cursor' ? Math.min(params.limit ?? 20, MAX_CURSOR_LIMIT) : (params.limit ?? 20);
  const window: Window =
    windowKind === 'page' ? { kind: 'page', page: params.page ?? 1, limit } : { kind: 'cursor', after: params.cursor, limit, maxBytes };
  const filters: Filter[] = [];
  if (params.status !== undefined) filters.push({ field: 'status', op: 'eq', value: params.status });
  for (const [field, operators] of Object.entries(params.filter ?? {})) {
    for (const [op, value] of Object.entries(operators ?? {})) filters.push({ field, op: op as FilterOp, value });
  }
  return { filters, sort: { field: sort.replace(/^-/, ''), descending: sort.startsWith('-') }, window };
}

/** Only the named fields of an item (sparse fieldsets); `id` and what `include` embedded always stay. */
export function pickFields<T extends { id: string }>(item: T, fields: readonly string[] | undefined, include?: string): Partial<T> {
  if (!fields || fields.length === 0) return item;
  const picked: Partial<T> = {};
  for (const key of new Set(['id', ...fields, ...(include ? [include] : [])])) {
    if (key in item) picked[key as keyof T] = item[key as keyof T];
  }
  return picked;
}

/** The cursor envelope's meta: `nextCursor` is the id of the last item when more exist. */
export function cursorMeta(page: ListResult<{ id: string }>): { nextCursor: string | null; hasMore: boolean } {
  return { nextCursor: page.hasMore ? (page.items.at(-1)?.id ?? null) : null, hasMore: page.hasMore };
}

/** The page-numbered envelope's meta. */
export function pageMeta(page: ListResult<unknown>, query: ListQuery): { total: number; page: number; limit: number } {
  const { window } = query;
  return { total: page.total ?? 0, page: window.kind === 'page' ? window.page : 1, limit: window.limit };
}
