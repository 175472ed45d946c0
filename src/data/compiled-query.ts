import type { Knex } from 'knex';

/** Where a query runs: the pool, or the connection of one transaction. */
export type Executor = Knex | Knex.Transaction;

/** Stand-ins for the values each run binds, handed to the function that builds the query. */
export interface Parameters<Name extends string> {
  /** Any value, bound as it is given to each run. */
  value(name: Name): string;
  /** For `limit` and `offset`, which knex takes as integers only. */
  integer(name: Name): number;
}

/** A query knex built and compiled once; each run binds its values in place of the parameters. */
export interface CompiledQuery<Name extends string, Result> {
  readonly sql: string;
  run(executor: Executor, values: Readonly<Record<Name, unknown>>): Promise<Result>;
}

/** The parts of knex's client that its own query runner uses to run compiled SQL on a connection. */
interface QueryClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  query(connection: unknown, query: QueryObject): Promise<QueryObject>;
  processResponse(query: QueryObject, runner: undefined): unknown;
}

interface QueryObject {
  sql: string;
  bindings: unknown[];
  method: string;
  options: object;
  returning?: unknown;
}

type Slot<Name> = { parameter: Name } | { value: unknown };

const VALUE_MARK = '\u0000parameter:';
/** Far above any limit or offset the service writes into a query. */
const FIRST_INTEGER_MARK = 2 ** 52;

/**
 * Builds a query with `build` and compiles it with knex, once. Running it skips knex's query
 * builder and compiler (tens of microseconds a query) and goes straight to the client call knex's
 * runner makes: the same connection handling, SQL positioning, driver call, error messages and
 * result shapes (`first` answers a row or undefined, `select` the rows) on every dialect.
 *
 * Each parameter must reach SQL as a binding, never inlined into its text: compiling refuses a
 * query where one does not (and one that leaves a declared parameter out).
 */
export function compileQuery<Name extends string, Result>(
  db: Knex,
  build: (parameters: Parameters<Name>) => Knex.QueryBuilder,
): CompiledQuery<Name, Result> {
  const names = new Set<Name>();
  const integers = new Map<number, Name>();
  const parameters: Parameters<Name> = {
    value: (name) => {
      names.add(name);
      return `${VALUE_MARK}${name}`;
    },
    integer: (name) => {
      names.add(name);
      const mark = FIRST_INTEGER_MARK + integers.size;
      integers.set(mark, name);
      return mark;
    },
  };
  const { sql, bindings, method, options, returning } = build(parameters).toSQL() as Knex.Sql & { returning?: unknown };
  if (sql.includes(VALUE_MARK) || [...integers.keys()].some((mark) => sql.includes(String(mark)))) {
    throw new Error(`a parameter was written into the SQL instead of bound: ${sql}`);
  }
  const slots: Array<Slot<Name>> = bindings.map((binding) => {
    if (typeof binding === 'string' && binding.startsWith(VALUE_MARK)) return { parameter: binding.slice(VALUE_MARK.length) as Name };
    const integer = typeof binding === 'number' ? integers.get(binding) : undefined;
    return integer === undefined ? { value: binding } : { parameter: integer };
  });
  for (const name of names) {
    if (!slots.some((slot) => 'parameter' in slot && slot.parameter === name)) throw new Error(`parameter ${name} is not bound in ${sql}`);
  }
  const queryOptions = { ...options };
  return {
    sql,
    async run(executor, values) {
      const bound = slots.map((slot) => ('parameter' in slot ? values[slot.parameter] : slot.value));
      // knex refuses an undefined binding when it compiles; here the compiling is done.
      if (bound.includes(undefined)) throw new Error(`Undefined binding(s) detected for ${sql}`);
      const client = executor.client as QueryClient;
      const connection = await client.acquireConnection();
      try {
        const response = await client.query(connection, { sql, bindings: bound, method, options: queryOptions, returning });
        return client.processResponse(response, undefined) as Result;
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}
