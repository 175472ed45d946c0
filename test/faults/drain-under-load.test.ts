import http from 'node:http';
import path from 'node:path';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';

const API_KEY = 'faults-drain-key-0123456789abcdef';
/** Concurrent clients, each with kept-alive connections, half on fetch and half on Node's agent. */
const CLIENTS = 16;
const LOAD_BEFORE_SIGTERM_MS = 2000;

type Outcome = 'answered' | 'refused' | 'reset';

interface Tally {
  answered: number;
  /** A new connection refused after the listener closed: the request never reached the service, and a load balancer retries it elsewhere. */
  refused: number;
  /** A connection cut under a request that was sent: the failure a drain must never cause. */
  reset: number;
  statuses: Record<string, number>;
  errors: string[];
}

function classify(error: unknown): Outcome {
  const codes = [error, (error as { cause?: unknown }).cause].map((e) => (e as { code?: string } | undefined)?.code);
  return codes.includes('ECONNREFUSED') ? 'refused' : 'reset';
}

/** One request on Node's keep-alive agent: GET the list, or POST an agent (not idempotent). */
function viaAgent(agent: http.Agent, port: number, post: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: 'load', type: 'type_a' });
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: post ? 'POST' : 'GET',
        path: post ? '/agents' : '/agents?limit=5',
        headers: { 'X-API-Key': API_KEY, ...(post ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}) },
      },
      (res) => res.resume().once('end', () => resolve(res.statusCode ?? 0)).once('error', reject),
    );
    req.once('error', reject);
    req.end(post ? body : undefined);
  });
}

async function viaFetch(port: number, post: boolean): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${post ? '/agents' : '/agents?limit=5'}`, {
    method: post ? 'POST' : 'GET',
    headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' },
    body: post ? JSON.stringify({ name: 'load', type: 'type_a' }) : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Sends requests back to back until the service refuses a new connection (it has stopped listening). */
async function client(index: number, port: number, tally: Tally): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  try {
    for (let n = 0; ; n++) {
      const post = n % 4 === 3;
      try {
        const status = await (index % 2 === 0 ? viaFetch(port, post) : viaAgent(agent, port, post));
        tally.answered += 1;
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      } catch (error) {
        const outcome = classify(error);
        tally[outcome] += 1;
        if (outcome === 'reset') tally.errors.push(String((error as { cause?: unknown }).cause ?? error));
        if (outcome === 'refused') return;
      }
    }
  } finally {
    agent.destroy();
  }
}

describe('SIGTERM under steady keep-alive load (a real service process)', () => {
  const processes = useServerProcesses();

  it.each([1, 2, 3])('round %i: when SIGTERM arrives mid-load, then no request sent on a kept-alive connection is reset, every answer is a success, and the process exits 0', async () => {
    const server = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`, SHUTDOWN_TIMEOUT_MS: '20000' }));
    const port = await listeningPort(server);
    const tally: Tally = { answered: 0, refused: 0, reset: 0, statuses: {}, errors: [] };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index, port, tally)));
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGTERM_MS));
    const answeredBefore = tally.answered;
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    await load;
    console.log(
      `drain round: ${tally.answered} answered (${tally.answered - answeredBefore} after SIGTERM), ${tally.reset} reset, ${tally.refused} refused new connections; statuses ${JSON.stringify(tally.statuses)}`,
    );
    expect(tally.errors).toEqual([]);
    expect(tally.reset).toBe(0);
    expect(Object.keys(tally.statuses).every((status) => status === '200' || status === '201')).toBe(true);
    expect(tally.answered).toBeGreaterThan(100);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});
