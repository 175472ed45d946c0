import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { makeTempDir, spawnServer } from './server-process';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/fleet');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('configuration validated at start', () => {
  it('when nothing is configured, then it serves on SQLite under data/ at 0.0.0.0:8000, development, log level info', () => {
    const config = loadConfig({}, '/srv/fleet');
    expect(config).toMatchObject({
      env: 'development',
      host: '0.0.0.0',
      port: 8000,
      database: { client: 'sqlite', filename: path.resolve('/srv/fleet', 'data/agent-fleet.sqlite') },
      logLevel: 'info',
      validateResponses: true,
    });
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    ['PORT', '70000', 'PORT must be an integer from 0 to 65535 (got "70000")'],
    ['PORT', '-1', 'PORT must be an integer from 0 to 65535 (got "-1")'],
    ['PORT', '80.5', 'PORT must be an integer from 0 to 65535 (got "80.5")'],
    ['HOST', 'localhost:8000', 'HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "localhost:8000")'],
    ['HOST', 'http://localhost', 'HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "http://localhost")'],
    ['HOST', 'two words', 'HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "two words")'],
    ['DATABASE_URL', 'mysql://fleet:hunter2@db/fleet', 'DATABASE_URL must start with postgres://, postgresql:// or sqlite: (got scheme "mysql")'],
    ['DATABASE_URL', 'sqlite:', 'DATABASE_URL=sqlite: needs a file path, e.g. sqlite:data/fleet.sqlite'],
    ['DATABASE_URL', 'postgres://fleet:hunter2@[db/fleet', 'DATABASE_URL is not a valid postgres:// URL'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
    ['NODE_ENV', 'staging', 'NODE_ENV must be one of development, production, test (got "staging")'],
    ['VALIDATE_RESPONSES', 'maybe', 'VALIDATE_RESPONSES must be true or false (got "maybe")'],
  ])('when %s=%s, then loading is refused with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(/^Invalid configuration:\n {2}- /);
    expect(problemsOf({ [name]: value })).toEqual([message]);
  });

  it('when DATABASE_URL carries a password and is refused, then the password is not in the message', () => {
    for (const url of ['mysql://fleet:hunter2@db/fleet', 'postgres://fleet:hunter2@[db/fleet']) {
      expect(problemsOf({ DATABASE_URL: url }).join('\n')).not.toContain('hunter2');
    }
  });

  it('when several values are bad, then every problem is reported at once', () => {
    const problems = problemsOf({ PORT: 'eighty', HOST: 'a host', DATABASE_URL: 'sqlite:', LOG_LEVEL: 'loud', NODE_ENV: 'prod' });
    expect(problems).toHaveLength(5);
    for (const name of ['NODE_ENV', 'PORT', 'HOST', 'DATABASE_URL', 'LOG_LEVEL']) {
      expect(problems.filter((problem) => problem.startsWith(`${name} `) || problem.startsWith(`${name}=`))).toHaveLength(1);
    }
  });

  it.each([
    [{ PORT: '0' }, { port: 0 }],
    [{ PORT: '65535' }, { port: 65535 }],
    [{ HOST: '127.0.0.1' }, { host: '127.0.0.1' }],
    [{ HOST: '::' }, { host: '::' }],
    [{ HOST: 'fleet-api.internal' }, { host: 'fleet-api.internal' }],
    [{ DATABASE_URL: 'sqlite:db/fleet.sqlite' }, { database: { client: 'sqlite', filename: '/srv/fleet/db/fleet.sqlite' } }],
    [{ DATABASE_URL: 'sqlite:///var/lib/fleet.sqlite' }, { database: { client: 'sqlite', filename: '/var/lib/fleet.sqlite' } }],
    [{ DATABASE_URL: 'sqlite::memory:' }, { database: { client: 'sqlite', filename: ':memory:' } }],
    [{ DATABASE_URL: 'postgresql://fleet:pw@db:5432/fleet' }, { database: { client: 'pg', connectionString: 'postgresql://fleet:pw@db:5432/fleet' } }],
    [{ LOG_LEVEL: 'silent' }, { logLevel: 'silent' }],
    [{ NODE_ENV: 'test' }, { env: 'test', logLevel: 'silent' }],
    [{ VALIDATE_RESPONSES: 'false' }, { validateResponses: false }],
  ])('when %j is set, then it is accepted as %j', (env, expected) => {
    expect(loadConfig(env as Record<string, string>, '/srv/fleet')).toMatchObject(expected);
  });
});

describe('the real server process with a bad value', () => {
  it('when PORT is not a number, then it refuses to start: the problem on stderr, exit code 1, nothing listening', async () => {
    const server = spawnServer({ PORT: 'eighty', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toBe('Invalid configuration:\n  - PORT must be an integer from 0 to 65535 (got "eighty")\n');
    expect(server.stdout()).not.toContain('listening');
  });

  it('when HOST is malformed, then it refuses to start before the database file is created', async () => {
    const temp = makeTempDir();
    try {
      const filename = path.join(temp.dir, 'never.sqlite');
      const server = spawnServer({ PORT: '0', HOST: 'localhost:8000', DATABASE_URL: `sqlite:${filename}`, LOG_LEVEL: 'info' });
      expect(await server.exited).toEqual({ code: 1, signal: null });
      expect(server.stderr()).toContain('HOST must be an IP address or a host name');
      expect(existsSync(filename)).toBe(false);
    } finally {
      temp.remove();
    }
  });
});
