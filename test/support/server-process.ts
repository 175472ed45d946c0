import net from 'node:net';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The real entry point (src/process/server.ts through tsx) in a child process of its own. */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Parsed JSON log lines from stdout, in order. */
  logs: Array<Record<string, unknown>>;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Resolves with the first log line that `matches` (already written or still to come). */
  waitForLog(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/**
 * Starts `node --import tsx src/process/server.ts` with exactly `env` (plus PATH and HOME): nothing from the
 * test process's own environment (jest's NODE_ENV=test, a developer's DATABASE_URL) leaks in.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/process/server.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let pending = '';
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ matches: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines.filter(Boolean)) {
      const line = JSON.parse(text) as Record<string, unknown>;
      logs.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.matches(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const waitForLog: ServerProcess['waitForLog'] = (matches) => {
    const seen = logs.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      waiters.push({ matches, resolve });
      void exited.then(({ code, signal }) =>
        reject(new Error(`server exited (code ${code}, signal ${signal}) before the expected log line\nstdout:\n${out}\nstderr:\n${err}`)),
      );
    });
  };
  return { child, logs, stdout: () => out, stderr: () => err, exited, waitForLog };
}

/** A service process's environment for tests: port 0 on loopback, one API key, a fixed JWT secret, and no root or machine-key rate limit to speak of (the suites load them hard). */
export function serviceEnv(apiKey: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: apiKey,
    JWT_SECRET: 'service-process-jwt-secret-at-least-32-bytes-long',
    RATE_LIMIT_ROOT_MAX: '1000000',
    RATE_LIMIT_SERVICE_KEY_MAX: '1000000',
    RATE_LIMIT_AGENT_KEY_MAX: '1000000',
    ...overrides,
  };
}

/** SIGKILL to each process still running, then waits for every exit. */
export async function killServers(...servers: Array<ServerProcess | undefined>): Promise<void> {
  const running = servers.filter((server): server is ServerProcess => server !== undefined);
  for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await Promise.all(running.map((server) => server.exited));
}

/** Waits for the "listening" line and reads the port the server chose (PORT=0). */
export async function listeningPort(server: ServerProcess): Promise<number> {
  const line = await server.waitForLog((entry) => typeof entry.port === 'number' && String(entry.msg).includes('listening'));
  return line.port as number;
}

/** A temporary directory for one test's SQLite file. */
export function makeTempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-ops-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * For a describe block: the server processes its tests spawn, and a temporary directory for their
 * files (made when a test first asks for it), both gone after each test.
 */
export function useServerProcesses(): { spawn(env: Record<string, string>): ServerProcess; tempDir(): string } {
  let spawned: ServerProcess[] = [];
  let temp: ReturnType<typeof makeTempDir> | undefined;
  afterEach(async () => {
    await killServers(...spawned);
    spawned = [];
    temp?.remove();
    temp = undefined;
  });
  return {
    spawn: (env) => {
      const server = spawnServer(env);
      spawned.push(server);
      return server;
    },
    tempDir: () => (temp ??= makeTempDir()).dir,
  };
}

/** One TCP connection attempt: 'refused' or 'accepted'. */
export function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve('refused') : reject(error)));
  });
}

export type JsonCall = (port: number, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Calls a service process on 127.0.0.1 with Node's fetch and a service key, sending and reading JSON. */
export function jsonCaller(apiKey: string): JsonCall {
  return async (port, method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { 'X-API-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}
