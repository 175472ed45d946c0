import path from 'node:path';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';

// The service runs on the Node that runs the suites: CI runs them on Node 20 and again on Node 24,
// where better-sqlite3's objects freed by the garbage collector once aborted the process at start.
const API_KEY = 'node-runtime-key-0123456789abcdef';
const METRICS_TOKEN = 'node-runtime-metrics-token-0123456789abcdef';
const WRITES = 60;

describe('the real service process on the Node running the suites', () => {
  const processes = useServerProcesses();

  it(`when it starts on SQLite and serves ${WRITES} writes and reads, then it answers them all, reports this Node in its metrics, keeps V8's young generation at its initial size, and exits 0 on SIGTERM`, async () => {
    const server = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`, METRICS_TOKEN }));
    const base = `http://127.0.0.1:${await listeningPort(server)}`;
    const headers = { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' };
    const newSpaceOf = (text: string) => Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)$/m.exec(text)?.[1]);
    const newSpaceAtStart = newSpaceOf(await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text());

    const statuses: number[] = [];
    for (let index = 0; index < WRITES; index++) {
      const created = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify({ name: `runtime-${index}`, type: 'type_a' }) });
      const listed = await fetch(`${base}/agents?limit=5`, { headers });
      statuses.push(created.status, listed.status);
      await Promise.all([created.arrayBuffer(), listed.arrayBuffer()]);
    }
    expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);

    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const metrics = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    const versionInfo = /^nodejs_version_info\{version="(v[\d.]+)"/m.exec(text);
    expect(versionInfo?.[1]).toBe(process.version);
    // src/process/heap-limits.ts: started without a cap, the semi-spaces keep the size they had when
    // the flags were set (1 MB under dist/; here whatever tsx's loader grew them to first, which a
    // cold cache makes larger): the writes and reads above did not grow them.
    expect(newSpaceAtStart).toBeGreaterThan(0);
    expect(newSpaceOf(text)).toBeLessThanOrEqual(newSpaceAtStart);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');
  });
});
