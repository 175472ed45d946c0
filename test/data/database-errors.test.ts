import { databaseOutageOf } from '../../src/data/database-errors';

describe("SQLite's busy and locked codes, extended ones included", () => {
  it.each(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE', 'SQLITE_LOCKED_VTAB'])(
    'when better-sqlite3 reports %s, then it is the busy outage (503)',
    (code) => {
      expect(databaseOutageOf(Object.assign(new Error('database is locked'), { code }))).toBe('busy');
    },
  );

  it.each(['SQLITE_BUSYNESS', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_IOERR_LOCK'])('when the code is %s, then it is no busy outage', (code) => {
    expect(databaseOutageOf(Object.assign(new Error('something else'), { code }))).toBeUndefined();
  });
});
