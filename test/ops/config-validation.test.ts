import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';
import { makeTempDir, spawnServer } from '../support/server-process';

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
      idempotency: { ttlHours: 24 },
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
    ['DATABASE_POOL_MAX', '1', 'DATABASE_POOL_MAX must be an integer from 2 to 1000 (got "1")'],
    ['DATABASE_ACQUIRE_TIMEOUT_MS', '50', 'DATABASE_ACQUIRE_TIMEOUT_MS must be an integer from 100 to 600000 (got "50")'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', 'soon', 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 100 to 3600000 (got "soon")'],
    ['SQLITE_BUSY_TIMEOUT_MS', '-5', 'SQLITE_BUSY_TIMEOUT_MS must be an integer from 0 to 600000 (got "-5")'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
    ['NODE_ENV', 'staging', 'NODE_ENV must be one of development, production, test (got "staging")'],
    ['VALIDATE_RESPONSES', 'maybe', 'VALIDATE_RESPONSES must be true or false (got "maybe")'],
    ['IDEMPOTENCY_KEY_TTL_HOURS', '0', 'IDEMPOTENCY_KEY_TTL_HOURS must be an integer from 1 to 720 (got "0")'],
    ['IDEMPOTENCY_KEY_TTL_HOURS', 'a day', 'IDEMPOTENCY_KEY_TTL_HOURS must be an integer from 1 to 720 (got "a day")'],
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
    [{}, { database: { limits: { poolMax: 10, acquireTimeoutMs: 5000, statementTimeoutMs: 10_000, busyTimeoutMs: 5000 } }, redis: undefined }],
    [
      { DATABASE_POOL_MAX: '4', DATABASE_ACQUIRE_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '3000', SQLITE_BUSY_TIMEOUT_MS: '0' },
      { database: { limits: { poolMax: 4, acquireTimeoutMs: 2000, statementTimeoutMs: 3000, busyTimeoutMs: 0 } } },
    ],
    [{ REDIS_URL: 'redis://cache:6379' }, { redis: { url: 'redis://cache:6379', commandTimeoutMs: 100, breakerFailures: 3, probeIntervalMs: 1000 } }],
    [
      { REDIS_URL: 'rediss://cache:6380', REDIS_COMMAND_TIMEOUT_MS: '50', REDIS_BREAKER_FAILURES: '5', REDIS_BREAKER_PROBE_MS: '250' },
      { redis: { url: 'rediss://cache:6380', commandTimeoutMs: 50, breakerFailures: 5, probeIntervalMs: 250 } },
    ],
  ])('when %j is set, then it is accepted as %j', (env, expected) => {
    expect(loadConfig(env as Record<string, string>, '/srv/fleet')).toMatchObject(expected);
  });
});

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-bytes' };
const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';

describe('TRUST_PROXY', () => {
  it('when it is true, then the start is refused: any client could then pick its own address', () => {
    for (const value of ['true', 'TRUE', ' true ']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([
        "TRUST_PROXY=true would believe any client's X-Forwarded-For: set the number of proxies in front of the service (e.g. 1) or their addresses/subnets (e.g. 10.0.0.0/8,loopback)",
      ]);
    }
  });

  it.each([
    ['10.0.0.0/33', '"10.0.0.0/33"'],
    ['::1/129', '"::1/129"'],
    ['999.1.1.1', '"999.1.1.1"'],
    ['10.0.0.1/', '"10.0.0.1/"'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8"'],
    ['10.0.0.0/-1', '"10.0.0.0/-1"'],
    ['10.0.0.0/8x', '"10.0.0.0/8x"'],
    ['1.2.3', '"1.2.3"'],
    ['::g', '"::g"'],
    ['proxy.internal', '"proxy.internal"'],
    ['loopback,', '""'],
    ['yes', '"yes"'],
    ['10.0.0.1, 10.0.0.300, everything', '"10.0.0.300", "everything"'],
  ])('when it is %s, then the start is refused naming the bad entries', (value, named) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([
      `TRUST_PROXY must be false, a hop count or a comma-separated list of proxy addresses, subnets (CIDR) or loopback, linklocal, uniquelocal (not valid: ${named})`,
    ]);
  });

  it('when a subnet is /0, then the start is refused: it trusts every address, as true would', () => {
    expect(problemsOf({ TRUST_PROXY: '10.0.0.1,0.0.0.0/0,::/0' })).toEqual([
      "TRUST_PROXY 0.0.0.0/0, ::/0 trusts every address, as true would: list the proxies' own addresses or subnets",
    ]);
  });

  it('when the hop count is absurd, then the start is refused', () => {
    expect(problemsOf({ TRUST_PROXY: '33' })).toEqual(['TRUST_PROXY hop count must be from 0 to 32 (got "33")']);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['10.0.0.0/8, 192.168.1.10 ,loopback', ['10.0.0.0/8', '192.168.1.10', 'loopback']],
    ['::1,fd00::/8,LinkLocal,uniquelocal', ['::1', 'fd00::/8', 'linklocal', 'uniquelocal']],
    ['::ffff:10.0.0.1/128', ['::ffff:10.0.0.1/128']],
  ])('when it is %j, then it is accepted as %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});

describe('HTTP timeouts', () => {
  it('when nothing is set, then a request has 30 s, its headers 10 s, an idle keep-alive connection 5 s', () => {
    expect(loadConfig({}).http).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5000 });
  });

  it('when they are set, then they are used', () => {
    const config = loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '60000', HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000' });
    expect(config.http).toEqual({ requestTimeoutMs: 60_000, headersTimeoutMs: 60_000, keepAliveTimeoutMs: 65_000 });
  });

  it('when the headers timeout exceeds the request timeout, then the start is refused', () => {
    expect(problemsOf({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS (6000) must not exceed HTTP_REQUEST_TIMEOUT_MS (5000)',
    ]);
    expect(problemsOf({ HTTP_REQUEST_TIMEOUT_MS: '9999' })).toEqual(['HTTP_HEADERS_TIMEOUT_MS (10000) must not exceed HTTP_REQUEST_TIMEOUT_MS (9999)']);
  });

  it.each(['HTTP_REQUEST_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS'])('when %s is 0 (no limit) or not a number, then the start is refused', (name) => {
    for (const value of ['0', 'soon', '999', '3600001']) {
      expect(problemsOf({ [name]: value })).toContain(`${name} must be an integer from 1000 to 3600000 (got "${value}")`);
    }
  });
});

describe('event log configuration', () => {
  it('when nothing is set, then events are kept 168 hours, streams beat every 15 s, poll every 500 ms, 10 per principal', () => {
    expect(loadConfig({}).events).toEqual({ retentionHours: 168, heartbeatMs: 15_000, pollMs: 500, streamsPerPrincipal: 10 });
  });

  it('when they are set, then they are used', () => {
    const config = loadConfig({ EVENT_RETENTION_HOURS: '24', EVENTS_HEARTBEAT_MS: '1000', EVENTS_POLL_MS: '250', EVENT_STREAMS_PER_PRINCIPAL: '2' });
    expect(config.events).toEqual({ retentionHours: 24, heartbeatMs: 1000, pollMs: 250, streamsPerPrincipal: 2 });
  });

  it.each([
    ['EVENT_RETENTION_HOURS', '0', 'an integer from 1 to 87600'],
    ['EVENTS_HEARTBEAT_MS', '50', 'an integer from 100 to 3600000'],
    ['EVENTS_POLL_MS', 'often', 'an integer from 50 to 60000'],
    ['EVENT_STREAMS_PER_PRINCIPAL', '0', 'an integer from 1 to 10000'],
  ])('when %s is %s, then the start is refused', (name, value, wanted) => {
    expect(problemsOf({ [name]: value })).toEqual([`${name} must be ${wanted} (got "${value}")`]);
  });
});

describe('metrics configuration', () => {
  it('when nothing is set, then no token and no metrics port; the metrics host defaults to 127.0.0.1, the agent label limit to 20', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1', agentLabelLimit: 20 });
  });

  it('when a token, port, host and agent label limit are set, then they are used', () => {
    expect(loadConfig({ METRICS_TOKEN, METRICS_PORT: '9464', METRICS_HOST: '10.1.2.3', METRICS_AGENT_LABEL_LIMIT: '5' }).metrics).toEqual({ token: METRICS_TOKEN, port: 9464, host: '10.1.2.3', agentLabelLimit: 5 });
  });

  it.each([
    [{ METRICS_TOKEN: 'short-token' }, 'METRICS_TOKEN must be at least 32 printable ASCII characters without spaces (e.g. `openssl rand -hex 32`)'],
    [{ METRICS_TOKEN: `${METRICS_TOKEN} with spaces` }, 'METRICS_TOKEN must be at least 32 printable ASCII characters without spaces (e.g. `openssl rand -hex 32`)'],
    [{ METRICS_PORT: 'ninety' }, 'METRICS_PORT must be an integer from 0 to 65535 (got "ninety")'],
    [{ METRICS_PORT: '8000' }, 'METRICS_PORT must differ from PORT (both are 8000)'],
    [{ METRICS_HOST: 'a host' }, 'METRICS_HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "a host")'],
    [{ METRICS_AGENT_LABEL_LIMIT: '1001' }, 'METRICS_AGENT_LABEL_LIMIT must be an integer from 0 to 1000 (got "1001")'],
  ])('when %j, then the start is refused', (env, message) => {
    expect(problemsOf(env as Record<string, string>)).toEqual([message]);
  });

  it('when the token is refused, then the message does not repeat it', () => {
    expect(problemsOf({ METRICS_TOKEN: 'hunter2-but-short' }).join('\n')).not.toContain('hunter2');
  });

  it('when production has neither METRICS_PORT nor METRICS_TOKEN, then a warning says /metrics is served nowhere', () => {
    expect(loadConfig(PRODUCTION).warnings).toContain('Neither METRICS_PORT nor METRICS_TOKEN is set: /metrics is not served anywhere (the API listener answers it 404)');
    expect(loadConfig({ ...PRODUCTION, METRICS_TOKEN }).warnings.filter((warning) => warning.includes('METRICS'))).toEqual([]);
    expect(loadConfig({ ...PRODUCTION, METRICS_PORT: '9464' }).warnings.filter((warning) => warning.includes('METRICS'))).toEqual([]);
  });

  it('when production serves the token-free metrics port on every interface, then a warning says so', () => {
    expect(loadConfig({ ...PRODUCTION, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).warnings).toContain(
      'METRICS_HOST=0.0.0.0: metrics are served without a token on every interface; make sure only the scraper reaches port 9464',
    );
  });
});

describe('the real server process with a bad value', () => {
  it('when PORT is not a number, then it refuses to start: the problem on stderr, exit code 1, nothing listening', async () => {
    const server = spawnServer({ PORT: 'eighty', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toBe('Invalid configuration:\n  - PORT must be an integer from 0 to 65535 (got "eighty")\n');
    expect(server.stdout()).not.toContain('listening');
  });

  it('when TRUST_PROXY is true, then it refuses to start: the problem on stderr, exit code 1', async () => {
    const server = spawnServer({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info', TRUST_PROXY: 'true' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toContain('TRUST_PROXY=true would believe any client');
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

describe('webhook settings', () => {
  it('when nothing is set, then endpoints must be public, attempts last 10 s, retries follow 5 s to 10 h, and each process looks every second, 8 at a time', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivateNetworks: false,
      httpsOnly: false,
      timeoutMs: 10_000,
      retryScheduleMs: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      pollMs: 1000,
      concurrency: 8,
    });
    expect(loadConfig(PRODUCTION).webhooks.httpsOnly).toBe(true);
  });

  it('when they are set, then they are read: a schedule in ms, s, m, h or d', () => {
    const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_RETRY_SCHEDULE: '50ms, 2s,1m,1h,1d', WEBHOOK_POLL_MS: '20', WEBHOOK_CONCURRENCY: '2' };
    expect(loadConfig(env).webhooks).toEqual({ allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 500, retryScheduleMs: [50, 2000, 60_000, 3_600_000, 86_400_000], pollMs: 20, concurrency: 2 });
  });

  it.each([
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, 'WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated delays such as 5s,5m,2h (units ms, s, m, h, d) (got "5s,soon")'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5' }, 'WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated delays such as 5s,5m,2h (units ms, s, m, h, d) (got "5")'],
    [{ WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1s').join(',') }, `WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated delays such as 5s,5m,2h (units ms, s, m, h, d) (got "${Array(21).fill('1s').join(',')}")`],
    [{ WEBHOOK_TIMEOUT_MS: '50' }, 'WEBHOOK_TIMEOUT_MS must be an integer from 100 to 120000 (got "50")'],
    [{ WEBHOOK_POLL_MS: '0' }, 'WEBHOOK_POLL_MS must be an integer from 10 to 600000 (got "0")'],
    [{ WEBHOOK_CONCURRENCY: '0' }, 'WEBHOOK_CONCURRENCY must be an integer from 1 to 256 (got "0")'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'sometimes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false (got "sometimes")'],
  ])('when %j, then the start is refused', (env, message) => {
    expect(problemsOf(env as Record<string, string>)).toEqual([message]);
  });

  it('when production allows private networks, or has no TOKEN_ENCRYPTION_KEY to seal signing secrets with, then warnings say so', () => {
    expect(loadConfig({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).warnings).toContain(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true in production: webhook endpoints may reach loopback, private and metadata addresses (server-side request forgery)',
    );
    expect(loadConfig(PRODUCTION).warnings).toContain(
      'TOKEN_ENCRYPTION_KEY is not set: webhook signing secrets are sealed with an ephemeral key, and no other instance, nor this one after a restart, can sign with them',
    );
    const keyed = loadConfig({ ...PRODUCTION, TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(keyed.warnings.filter((warning) => warning.includes('WEBHOOK') || warning.includes('TOKEN_ENCRYPTION_KEY'))).toEqual([]);
  });
});

describe('trusted origins', () => {
  const trustedOf = (env: Record<string, string>): readonly string[] => loadConfig(env, '/srv/fleet').auth.trustedOrigins;

  it('when PUBLIC_URL is http://localhost:8000, then its loopback aliases 127.0.0.1 and [::1] on the same port are trusted too', () => {
    expect(trustedOf({ PUBLIC_URL: 'http://localhost:8000' })).toEqual(['http://localhost:8000', 'http://127.0.0.1:8000', 'http://[::1]:8000']);
  });

  it('when PUBLIC_URL is a loopback address, then the other two loopback names are trusted, on its scheme and port only', () => {
    expect(trustedOf({ PUBLIC_URL: 'http://127.0.0.1:3000' })).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']);
    expect(trustedOf({ PUBLIC_URL: 'https://[::1]:8443' })).toEqual(['https://[::1]:8443', 'https://localhost:8443', 'https://127.0.0.1:8443']);
    expect(trustedOf({ PUBLIC_URL: 'http://localhost' })).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]']);
  });

  it('when nothing is set, then the default PUBLIC_URL on PORT and its loopback aliases are trusted', () => {
    expect(trustedOf({ PORT: '9000' })).toEqual(['http://localhost:9000', 'http://127.0.0.1:9000', 'http://[::1]:9000']);
  });

  it('when PUBLIC_URL is https://fleet.example.com, then no loopback origin is added', () => {
    expect(trustedOf({ PUBLIC_URL: 'https://fleet.example.com' })).toEqual(['https://fleet.example.com']);
    expect(trustedOf({ PUBLIC_URL: 'http://localhost.example.com:8000' })).toEqual(['http://localhost.example.com:8000']);
  });

  it('when TRUSTED_ORIGINS is set, then its origins follow PUBLIC_URL\'s without aliases of their own', () => {
    const trusted = trustedOf({ PUBLIC_URL: 'https://fleet.example.com', TRUSTED_ORIGINS: 'http://localhost:5173, https://console.example.com' });
    expect(trusted).toEqual(['https://fleet.example.com', 'http://localhost:5173', 'https://console.example.com']);
  });
});
