/** The part of better-sqlite3's API the benchmark's comparison apps use (the package ships no types). */
declare module 'better-sqlite3' {
  interface Statement<Row> {
    get(...params: unknown[]): Row | undefined;
    all(...params: unknown[]): Row[];
    run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  }

  interface Database {
    pragma(source: string): unknown;
    prepare<Row = Record<string, unknown>>(source: string): Statement<Row>;
    transaction<Args extends unknown[], Result>(work: (...args: Args) => Result): (...args: Args) => Result;
    close(): void;
  }

  const Database: new (filename: string) => Database;
  export = Database;
}
