import type { ListQuery } from '../data/list-query';

export type { Filter, FilterOp, ListQuery, ListResult, Sort, Window } from '../data/list-query';

/** The root surface's `skip`/`limit`/`status`: oldest first. */
export function offsetQuery(skip: number, limit: number, status?: string, maxBytes?: number): ListQuery {
  return {
    filters: status === undefined ? [] : [{ field: 'status', op: 'eq', value: status }],
    sort: { field: 'created_at', descending: false },
    window: { kind: 'offset', skip, limit, maxBytes },
  };
}
