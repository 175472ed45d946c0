/** How a caller asks for part of a collection; both surfaces translate their query into this. */
export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'contains';

export interface Filter {
  field: string;
  op: FilterOp;
  /** For `in`, a comma-separated list. */
  value: string | number;
}

export interface Sort {
  field: string;
  descending: boolean;
}

/**
 * `maxBytes` is the response budget: a window of large items (tasks, posts) ends before the item
 * that would take the answer beyond it, however many `limit` allows (always holding one item).
 */
export type Window =
  | { kind: 'offset'; skip: number; limit: number; maxBytes?: number }
  | { kind: 'page'; page: number; limit: number }
  | { kind: 'cursor'; after?: string; limit: number; maxBytes?: number };

export interface ListQuery {
  filters: Filter[];
  sort: Sort;
  window: Window;
}

export interface ListResult<T> {
  items: T[];
  hasMore: boolean;
  /** Page-numbered windows only. */
  total?: number;
}
