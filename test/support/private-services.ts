import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';

/** A port nothing listens on right now (the kernel's choice). */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Polls `check` until it holds; the milliseconds it took. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** A redis-server of the test's own on a spare port, which the test may kill, freeze and restart. */
export interface PrivateRedis {
  port: number;
  url: string;
  /** SIGKILL: connections are reset, new ones refused. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** A new server on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
  /** Keys matching `pattern`, read by a client of the test's own. */
  keys(pattern: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await sparePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const answers = async () => {
    const client = createClient({ url, socket: { connectTimeout: 500, reconnectStrategy: false } });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch {
      return false;
    } finally {
      if (client.isOpen) client.destroy();
    }
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGCONT');
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  const redis: PrivateRedis = {
    port,
    url,
    kill,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    start: async () => {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitUntil(`redis-server on port ${port}`, answers);
    },
    keys: async (pattern) => {
      const client = createClient({ url });
      await client.connect();
      try {
        return await client.keys(pattern);
      } finally {
        client.destroy();
      }
    },
    stop: kill,
  };
  await redis.start();
  return redis;
}

/**
 * A PostgreSQL cluster of the test's own (initdb and pg_ctl, run as the postgres user when the
 * tests run as root), on a spare port, which the test may stop, start and freeze.
 */
export interface PrivatePostgres {
  port: number;
  url: string;
  stop(): void;
  start(): void;
  /** SIGSTOP to every process of the cluster: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return path.join(root, version, 'bin');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const port = await sparePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map((arg) => `'${arg}'`).join(' ')], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '30', '-l', path.join(dir, 'log'), 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  let frozen: number[] = [];
  /** The postmaster (first line of postmaster.pid) and its children: the backends and workers. */
  const clusterPids = () => {
    const master = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    const children = execFileSync('pgrep', ['-P', String(master)]).toString().trim().split('\n').filter(Boolean).map(Number);
    return [master, ...children];
  };
  start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    freeze: () => {
      frozen = clusterPids();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    destroy: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      try {
        stop();
      } catch {
        // it was stopped already
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
