import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentFleetError,
  LeaseLostError,
  PermanentError,
  createAgentFleetClient,
  createWorker,
  type AgentFleetClientOptions,
  type TaskHandler,
  type Worker,
  type WorkerEvent,
  type WorkerOptions,
} from '../../src/client';

type Operation = 'claim' | 'heartbeat' | 'report' | 'release';
/**
 * An answer given instead of the in-memory behaviour (`status`), or the connection dropped before
 * or after the change is applied, or dropped at once while the claim goes on as if still asked.
 */
type Fault = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang-up' | 'apply-then-hang-up' | 'hang-up-and-keep-claiming';
type FakeTask = { id: string; agent_id: string; title: string; input: Record<string, unknown> | null; status: string; attempts: number };
type FakeLease = { id: string; agent_id: string; task_id: string; task: FakeTask; status: string; ttl_seconds: number; expires_at: string; created_at: string; expiresAtMs: number };
type Call = { operation: Operation; at: number; leaseId?: string; body: Record<string, unknown>; idempotencyKey?: string };


/** The four lease calls of api.yaml, in memory, over real HTTP: just enough to pin the worker's behaviour. */
class LeaseServer {
  readonly calls: Call[] = [];
  readonly outcomes = new Map<string, Record<string, unknown>>();
  readonly faults: Record<Operation, Fault[]> = { claim: [], heartbeat: [], report: [], release: [] };
  readonly leases = new Map<string, FakeLease>();
  /** Claims' answers by Idempotency-Key, replayed to the same key, as the service keeps them; and the keys of claims still running. */
  readonly claimAnswers = new Map<string, [number, unknown]>();
  readonly claimsRunning = new Set<string>();
  queue: FakeTask[] = [];
  paused = false;
  /** This test's claims whose connection closed before they were answered. */
  abandonedClaims = 0;
  maxActive = 0;
  baseUrl = '';
  #ids = 0;
  /** A new agent for each test: a claim of an earlier test's worker, still on its way when it stopped, takes nothing of the next one's. */
  agentId = 'agent-0';
  readonly #server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => void this.#route(req, res, text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)));
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
  reset(): void {
    this.agentId = `agent-${(this.#ids += 1)}`;
    this.calls.length = 0;
    this.outcomes.clear();
    this.leases.clear();
    this.claimAnswers.clear();
    this.claimsRunning.clear();
    this.queue = [];
    this.paused = false;
    this.abandonedClaims = 0;
    this.maxActive = 0;
    for (const list of Object.values(this.faults)) list.length = 0;
  }
  enqueue(title: string, input: Record<string, unknown> | null = null): string {
    const task = { id: `task-${(this.#ids += 1)}`, agent_id: this.agentId, title, input, status: 'queued', attempts: 0 };
    this.queue.push(task);
    return task.id;
  }
  /** Ends a lease as another party would (an owner's cancel): its worker's next call hears LEASE_LOST. */
  end(leaseId: string, status: 'cancelled' | 'expired'): void {
    const lease = this.leases.get(leaseId);
    if (lease !== undefined) lease.status = status;
  }
  callsOf(operation: Operation): Call[] {
    return this.calls.filter((call) => call.operation === operation);
  }
  active(): FakeLease[] {
    return [...this.leases.values()].filter((lease) => lease.status === 'active');
  }

  async #route(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const [, agentId, leaseId] = /\/agents\/([^/]+)\/leases(?:\/([^/]+))?$/.exec(req.url ?? '') ?? [];
    if (agentId !== this.agentId) return void res.writeHead(204).end();
    const operation: Operation = req.method === 'POST' ? 'claim' : req.method === 'DELETE' ? 'release' : 'status' in body ? 'report' : 'heartbeat';
    const key = req.headers['idempotency-key'] as string | undefined;
    this.calls.push({ operation, at: Date.now(), ...(leaseId === undefined ? {} : { leaseId }), body, ...(key === undefined ? {} : { idempotencyKey: key }) });
    const fault = this.faults[operation].shift();
    if (fault === 'hang-up') return void res.socket?.destroy();
    if (typeof fault === 'object') return json(res, fault.status, fault.body ?? { error: { code: 'SERVICE_UNAVAILABLE', message: 'later' } }, fault.headers);
    if (operation === 'claim' && key !== undefined) {
      const kept = this.claimAnswers.get(key);
      if (kept !== undefined) return kept[0] === 204 ? void res.writeHead(204, { 'Idempotent-Replayed': 'true' }).end() : json(res, kept[0], kept[1], { 'Idempotent-Replayed': 'true' });
      if (this.claimsRunning.has(key)) return json(res, 409, { error: { code: 'IDEMPOTENCY_KEY_IN_USE', message: 'A request with this key is in progress' } }, { 'Retry-After': '1' });
      this.claimsRunning.add(key);
    }
    if (fault === 'hang-up-and-keep-claiming') res.socket?.destroy();
    const [status, answer] = operation === 'claim' ? await this.#claim(fault === 'hang-up-and-keep-claiming' ? undefined : res, body) : this.#change(operation, leaseId ?? '', body);
    if (operation === 'claim' && key !== undefined) {
      this.claimsRunning.delete(key);
      this.claimAnswers.set(key, [status, answer]);
    }
    if (fault === 'apply-then-hang-up' || fault === 'hang-up-and-keep-claiming') return void res.socket?.destroy();
    if (status === 204) return void res.writeHead(204).end();
    json(res, status, answer);
  }

  async #claim(res: ServerResponse | undefined, body: Record<string, unknown>): Promise<[number, unknown]> {
    if (this.paused) return [409, { error: { code: 'CONFLICT', message: 'The agent is paused' } }];
    let closed = false;
    res?.once('close', () => (closed = true));
    const agentId = this.agentId;
    const until = Date.now() + Number(body['wait_seconds'] ?? 0) * 1000;
    for (;;) {
      this.#expire();
      // A claim of an earlier test's worker ends here without counting: it must not pass for this test's abandoned claim.
      if (agentId !== this.agentId) return [204, undefined];
      if (closed) {
        this.abandonedClaims += 1;
        return [204, undefined];
      }
      const task = this.queue.shift();
      if (task !== undefined) {
        const ttl = Number(body['ttl_seconds'] ?? 60);
        const lease = { id: `lease-${(this.#ids += 1)}`, agent_id: this.agentId, task_id: task.id, task: { ...task, status: 'running', attempts: task.attempts + 1 }, status: 'active', ttl_seconds: ttl, created_at: new Date().toISOString(), expires_at: '', expiresAtMs: 0 };
        task.attempts += 1;
        this.#extend(lease, ttl);
        this.leases.set(lease.id, lease);
        this.maxActive = Math.max(this.maxActive, this.active().length);
        return [201, { data: view(lease), meta: {} }];
      }
      if (Date.now() >= until) return [204, undefined];
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  #change(operation: Operation, leaseId: string, body: Record<string, unknown>): [number, unknown] {
    this.#expire();
    const lease = this.leases.get(leaseId);
    if (lease === undefined) return [404, { error: { code: 'NOT_FOUND', message: 'Lease not found' } }];
    if (lease.status !== 'active') {
      return [409, { error: { code: 'LEASE_LOST', message: 'The lease is no longer active', details: { reason: lease.status, lease_status: lease.status } } }];
    }
    if (operation === 'heartbeat') {
      this.#extend(lease, Number(body['ttl_seconds'] ?? lease.ttl_seconds));
      return [200, { data: view(lease), meta: {} }];
    }
    if (operation === 'release') {
      lease.status = 'released';
      this.#requeue(lease.task, -1);
      return [204, undefined];
    }
    lease.status = 'completed';
    this.outcomes.set(lease.task_id, body);
    return [200, { data: view(lease), meta: {} }];
  }

  #extend(lease: FakeLease, ttl: number): void {
    lease.expiresAtMs = Date.now() + ttl * 1000;
    lease.expires_at = new Date(lease.expiresAtMs).toISOString();
  }
  #expire(): void {
    for (const lease of this.active()) {
      if (lease.expiresAtMs > Date.now()) continue;
      lease.status = 'expired';
      this.#requeue(lease.task, 0);
    }
  }
  #requeue(task: FakeTask, attemptsDelta: number): void {
    this.queue.push({ ...task, status: 'queued', attempts: task.attempts + attemptsDelta });
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
function view(lease: FakeLease): Omit<FakeLease, 'expiresAtMs'> {
  const { expiresAtMs: _, ...rest } = lease;
  return rest;
}
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createWorker against an in-memory lease server', () => {
  const server = new LeaseServer();
  const events: WorkerEvent[] = [];
  let worker: Worker | undefined;
  const workerWith = (handler: TaskHandler, options: Partial<WorkerOptions> = {}, clientOptions: Partial<AgentFleetClientOptions> = {}): Worker => {
    const client = createAgentFleetClient({ baseUrl: server.baseUrl, auth: { apiKey: 'afk_test' }, retry: false, ...clientOptions });
    worker = createWorker(client, { agentId: server.agentId, handler, waitSeconds: 1, backoff: { initialMs: 100, maxMs: 400 }, onEvent: (event) => events.push(event), ...options });
    return worker.start();
  };
  const eventsOf = <T extends WorkerEvent['type']>(type: T) => events.filter((event): event is Extract<WorkerEvent, { type: T }> => event.type === type);

  /** Waits for `condition`; when it does not come, says what the server saw and what the worker did. */
  const until = async (condition: () => boolean, timeoutMs = 15_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) {
        const leases = [...server.leases.values()].map((lease) => [lease.id, lease.status]);
        throw new Error(`Not met in time: ${JSON.stringify({ calls: server.calls, leases, events: events.map((event) => [event.type, 'error' in event ? String(event.error) : '']) })}`);
      }
      await delay(20);
    }
  };
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.reset();
    events.length = 0;
  });
  afterEach(async () => {
    await worker?.stop({ graceful: false });
    worker = undefined;
  });

  describe('claiming and reporting', () => {
    it('when tasks are queued, then each is claimed with the TTL and the wait, handled with its task, and reported succeeded with the handler\'s value', async () => {
      const first = server.enqueue('first', { n: 1 });
      const second = server.enqueue('second', { n: 2 });
      const seen: unknown[] = [];
      workerWith(async (task, { lease, signal }) => {
        seen.push([task.title, task.input, lease.task_id, signal.aborted]);
        return { doubled: Number(task.input?.['n']) * 2 };
      }, { ttlSeconds: 30, waitSeconds: 2 });
      // The server records an outcome as the report arrives; the worker says so once it is answered.
      await until(() => server.outcomes.size === 2 && eventsOf('succeeded').length === 2);
      expect(seen).toEqual([
        ['first', { n: 1 }, first, false],
        ['second', { n: 2 }, second, false],
      ]);
      expect(server.outcomes.get(first)).toEqual({ status: 'succeeded', result: { doubled: 2 } });
      expect(server.outcomes.get(second)).toEqual({ status: 'succeeded', result: { doubled: 4 } });
      expect(server.callsOf('claim')[0]?.body).toEqual({ ttl_seconds: 30, wait_seconds: 2 });
      expect(eventsOf('succeeded').map((event) => [event.lease.task_id, event.lease.status])).toEqual([
        [first, 'completed'],
        [second, 'completed'],
      ]);
    });

    it('when the handler returns nothing, then the task succeeds without a result', async () => {
      const id = server.enqueue('quiet');
      workerWith(async () => undefined);
      await until(() => server.outcomes.size === 1);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded' });
    });

    it('when the handler throws, then the attempt fails with its message and retry; a PermanentError or an error with retry: false fails it for good', async () => {
      const retried = server.enqueue('flaky');
      const permanent = server.enqueue('broken');
      const marked = server.enqueue('marked');
      workerWith(async (task) => {
        if (task.title === 'flaky') throw new Error('the model timed out');
        if (task.title === 'broken') throw new PermanentError('the input is not a document');
        throw Object.assign(new Error('quota of the model provider'), { retry: false });
      });
      // The server records an outcome before the worker hears its answer and says so.
      await until(() => server.outcomes.size === 3 && eventsOf('failed').length === 3);
      expect(server.outcomes.get(retried)).toEqual({ status: 'failed', error: 'the model timed out', retry: true });
      expect(server.outcomes.get(permanent)).toEqual({ status: 'failed', error: 'the input is not a document', retry: false });
      expect(server.outcomes.get(marked)).toEqual({ status: 'failed', error: 'quota of the model provider', retry: false });
      expect(eventsOf('failed').map((event) => [event.error, event.retry])).toEqual([
        ['the model timed out', true],
        ['the input is not a document', false],
        ['quota of the model provider', false],
      ]);
    });

    it('when the report meets a 503 and then a dropped connection, then it is sent again until it is answered', async () => {
      const id = server.enqueue('report twice');
      server.faults.report.push({ status: 503 }, 'hang-up');
      workerWith(async () => 'done');
      await until(() => server.outcomes.size === 1 && eventsOf('succeeded').length === 1);
      expect(server.callsOf('report').map((call) => call.body)).toEqual([
        { status: 'succeeded', result: 'done' },
        { status: 'succeeded', result: 'done' },
        { status: 'succeeded', result: 'done' },
      ]);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'done' });
      expect(eventsOf('error').map((event) => [event.operation, event.retryInMs !== undefined])).toEqual([
        ['report', true],
        ['report', true],
      ]);
      expect(eventsOf('succeeded')).toHaveLength(1);
    });

    it('when a report landed but its answer was lost, then the retry\'s LEASE_LOST (completed) counts as reported, not as a lost lease', async () => {
      const id = server.enqueue('landed');
      server.faults.report.push('apply-then-hang-up');
      workerWith(async () => 42);
      await until(() => eventsOf('succeeded').length === 1);
      expect(server.callsOf('report')).toHaveLength(2);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 42 });
      expect(eventsOf('lost')).toEqual([]);
    });

    it('when a claim took a lease but its answer was lost, then the client sends it again with the same Idempotency-Key and is answered the same lease: one lease, one attempt', async () => {
      const id = server.enqueue('claimed once');
      server.faults.claim.push('apply-then-hang-up');
      const handled: string[] = [];
      workerWith(async (task, { lease }) => void handled.push(`${task.id} ${lease.id}`), {}, { retry: { baseDelayMs: 10 } });
      await until(() => server.outcomes.size === 1);
      const [first, second] = server.callsOf('claim');
      expect(first?.idempotencyKey).toEqual(expect.any(String));
      expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
      expect(server.leases.size).toBe(1);
      const [lease] = server.leases.values();
      expect(handled).toEqual([`${id} ${lease?.id}`]);
      expect(lease).toMatchObject({ status: 'completed', task: { attempts: 1 } });
      expect(eventsOf('claimed')).toHaveLength(1);
      // The next claim is another one: another key.
      expect(server.callsOf('claim')[2]?.idempotencyKey).not.toBe(first?.idempotencyKey);
    });

    it('when the client does not retry, then the worker sends a failed claim again under its key, waits out IDEMPOTENCY_KEY_IN_USE while the first runs, and gets the first one\'s lease', async () => {
      server.faults.claim.push('hang-up-and-keep-claiming');
      workerWith(async () => 'once', { waitSeconds: 2 });
      await until(() => server.callsOf('claim').length >= 2);
      const id = server.enqueue('arrives during the first claim');
      await until(() => server.outcomes.size === 1);
      const claims = server.callsOf('claim');
      const key = claims[0]?.idempotencyKey;
      expect(new Set(claims.slice(0, 3).map((claim) => claim.idempotencyKey))).toEqual(new Set([key]));
      expect(eventsOf('error').map((event) => [event.operation, (event.error as { status?: number }).status])).toEqual([
        ['claim', undefined],
        ['claim', 409],
      ]);
      expect(eventsOf('error')[1]?.retryInMs).toBe(1000);
      expect(server.leases.size).toBe(1);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'once' });
    });

    it('when the service refuses a result (400), then the task fails for good with the service\'s reason instead of expiring and running again', async () => {
      const id = server.enqueue('too big');
      server.faults.report.push({ status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'result is larger than 65536 bytes' } } });
      workerWith(async () => 'x'.repeat(10));
      await until(() => server.outcomes.size === 1);
      expect(server.outcomes.get(id)).toEqual({ status: 'failed', error: 'The service refused the result: 400 VALIDATION_ERROR: result is larger than 65536 bytes', retry: false });
    });
  });

  describe('heartbeats', () => {
    it('when a handler runs longer than the TTL, then the lease is extended every third of it and the outcome is reported', async () => {
      const id = server.enqueue('slow');
      workerWith(() => delay(3500).then(() => 'slow done'), { ttlSeconds: 1.5 });
      await until(() => server.outcomes.size === 1);
      const beats = server.callsOf('heartbeat');
      expect(beats.length).toBeGreaterThanOrEqual(4);
      for (const beat of beats) expect(beat.body).toEqual({ ttl_seconds: 1.5 });
      const claimedAt = server.callsOf('claim')[0]?.at ?? 0;
      const gaps = beats.map((beat, index) => beat.at - (beats[index - 1]?.at ?? claimedAt));
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(450);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'slow done' });
      expect(eventsOf('lost')).toEqual([]);
    });

    it('when progress is reported, then it goes at once with a heartbeat that also extends the lease', async () => {
      server.enqueue('progress');
      workerWith(async (_task, { progress }) => {
        await progress({ percent: 50, message: 'half way' });
        return 'ok';
      });
      await until(() => server.outcomes.size === 1);
      expect(server.callsOf('heartbeat').map((call) => call.body)).toEqual([{ ttl_seconds: 60, progress: { percent: 50, message: 'half way' } }]);
    });

    it('when a heartbeat answers LEASE_LOST, then the handler\'s signal aborts with a LeaseLostError and its outcome is not reported', async () => {
      server.enqueue('cancelled by its owner');
      let reason: unknown;
      workerWith(
        (_task, { signal, lease }) =>
          new Promise((resolve) => {
            server.end(lease.id, 'cancelled');
            signal.addEventListener('abort', () => {
              reason = signal.reason;
              // A handler that ignores the abort and resolves anyway: its value is not reported.
              resolve('too late');
            });
          }),
        { ttlSeconds: 1.5 },
      );
      await until(() => eventsOf('lost').length === 1);
      await delay(300);
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect(reason).toMatchObject({ reason: 'cancelled' });
      expect(eventsOf('lost')[0]?.reason).toBe('cancelled');
      expect(server.callsOf('heartbeat')).toHaveLength(1);
      expect(server.callsOf('report')).toEqual([]);
      expect(server.outcomes.size).toBe(0);
    });

    it('when heartbeats keep failing (503, dropped connections) until the TTL runs out, then they are retried, the signal aborts with reason expired, and nothing is reported', async () => {
      server.enqueue('unreachable');
      server.faults.heartbeat.push(...Array.from({ length: 50 }, (_, index): Fault => (index % 2 === 0 ? { status: 503 } : 'hang-up')));
      let reason: unknown;
      workerWith(
        (_task, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              reason = signal.reason;
              reject(signal.reason as Error);
            });
          }),
        { ttlSeconds: 1.5 },
      );
      await until(() => eventsOf('lost').length === 1);
      await delay(300);
      expect(reason).toMatchObject({ name: 'LeaseLostError', reason: 'expired' });
      expect(server.callsOf('heartbeat').length).toBeGreaterThanOrEqual(2);
      for (const event of eventsOf('error')) expect(event).toMatchObject({ operation: 'heartbeat', retryInMs: expect.any(Number) });
      expect(server.callsOf('report')).toEqual([]);
    });

    it('when one heartbeat fails (503), then the next one keeps the lease and the outcome is reported', async () => {
      const id = server.enqueue('one bad beat');
      server.faults.heartbeat.push({ status: 503, headers: { 'Retry-After': '0' } });
      workerWith(() => delay(1500).then(() => 'kept'), { ttlSeconds: 1.5 });
      await until(() => server.outcomes.size === 1);
      expect(server.callsOf('heartbeat').length).toBeGreaterThanOrEqual(2);
      expect(eventsOf('lost')).toEqual([]);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'kept' });
    });
  });

  describe('stopping', () => {
    it('when stopped gracefully, then the long poll in flight is aborted, no more tasks are claimed, and the running handler finishes and reports', async () => {
      const id = server.enqueue('in flight');
      let finish: ((value: string) => void) | undefined;
      const running = workerWith(() => new Promise<string>((resolve) => (finish = resolve)), { concurrency: 2, waitSeconds: 20 });
      // The handler has the task (a lease granted by the server may still be on its way to the worker).
      await until(() => finish !== undefined && server.callsOf('claim').length === 2);
      await delay(100);
      let stopped = false;
      const stopping = running.stop().then(() => (stopped = true));
      await until(() => server.abandonedClaims === 1);
      server.enqueue('queued after the stop');
      await delay(300);
      expect(stopped).toBe(false);
      finish?.('finished after the stop');
      await stopping;
      await running.done;
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'finished after the stop' });
      expect(server.callsOf('claim')).toHaveLength(2);
      expect(server.queue.map((task) => task.title)).toEqual(['queued after the stop']);
    });

    it('when the stop\'s timeout passes, then the handler\'s signal aborts, its lease is released, and stop resolves without waiting for the handler', async () => {
      const id = server.enqueue('never ends');
      let reason: unknown;
      let started = false;
      const running = workerWith((_task, { signal }) => {
        started = true;
        signal.addEventListener('abort', () => (reason = signal.reason));
        return new Promise(() => undefined);
      });
      await until(() => started);
      await running.stop({ timeoutMs: 300 });
      expect(reason).toMatchObject({ name: 'AbortError' });
      expect(server.callsOf('release').map((call) => call.leaseId)).toEqual([eventsOf('claimed')[0]?.lease.id]);
      expect(server.active()).toEqual([]);
      expect(server.queue.map((task) => [task.id, task.attempts])).toEqual([[id, 0]]);
      expect(eventsOf('released')).toHaveLength(1);
      expect(server.callsOf('report')).toEqual([]);
    });

    it('when stopped without grace, then running handlers are aborted and released at once', async () => {
      server.enqueue('one');
      server.enqueue('two');
      const aborted: string[] = [];
      const started: string[] = [];
      const running = workerWith(
        (task, { signal }) =>
          new Promise((_resolve, reject) => {
            started.push(task.title);
            signal.addEventListener('abort', () => {
              aborted.push(task.title);
              reject(signal.reason as Error);
            });
          }),
        { concurrency: 2 },
      );
      await until(() => started.length === 2);
      await running.stop({ graceful: false });
      expect(aborted.sort()).toEqual(['one', 'two']);
      expect(server.callsOf('release')).toHaveLength(2);
      expect(server.callsOf('report')).toEqual([]);
      expect(() => running.start()).toThrow(/does not start again/);
    });
  });

  describe('concurrency and back-off', () => {
    it('when concurrency is 3 and 7 tasks are queued, then at most 3 handlers run at once, and 3 do', async () => {
      for (let index = 0; index < 7; index += 1) server.enqueue(`task ${index}`);
      let running = 0;
      let most = 0;
      workerWith(
        async () => {
          running += 1;
          most = Math.max(most, running);
          await delay(200);
          running -= 1;
        },
        { concurrency: 3 },
      );
      await until(() => server.outcomes.size === 7);
      expect(most).toBe(3);
      expect(server.maxActive).toBe(3);
    });

    it('when claims fail (503, dropped connection, 429), then the worker backs off exponentially with jitter up to its cap, honours Retry-After, and then works', async () => {
      const id = server.enqueue('after the outage');
      server.faults.claim.push({ status: 503 }, 'hang-up', { status: 503 }, { status: 503 }, { status: 429, headers: { 'Retry-After': '1' } });
      workerWith(async () => 'recovered');
      await until(() => server.outcomes.size === 1);
      const retries = eventsOf('error').map((event) => [event.operation, event.retryInMs]);
      expect(retries.map(([operation]) => operation)).toEqual(['claim', 'claim', 'claim', 'claim', 'claim']);
      const waits = retries.map(([, retryInMs]) => Number(retryInMs));
      // Ceilings 100, 200, 400, 400 (the cap): each wait is between half of its ceiling and the ceiling.
      [100, 200, 400, 400].forEach((ceiling, index) => {
        expect(waits[index]).toBeGreaterThanOrEqual(ceiling / 2);
        expect(waits[index]).toBeLessThanOrEqual(ceiling);
      });
      expect(waits[4]).toBe(1000);
      const claims = server.callsOf('claim');
      claims.slice(1).forEach((claim, index) => expect(claim.at - (claims[index]?.at ?? 0)).toBeGreaterThanOrEqual((waits[index] ?? 0) - 5));
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'recovered' });
    });

    it('when the agent is paused (409 CONFLICT), then the worker keeps trying and works once it is resumed', async () => {
      server.paused = true;
      const id = server.enqueue('after the pause');
      workerWith(async () => 'resumed');
      await until(() => eventsOf('error').length >= 2);
      expect(eventsOf('error')[0]).toMatchObject({ operation: 'claim', error: { status: 409 }, retryInMs: expect.any(Number) });
      server.paused = false;
      await until(() => server.outcomes.size === 1);
      expect(server.outcomes.get(id)).toEqual({ status: 'succeeded', result: 'resumed' });
    });

    it('when a claim is refused for good (403), then the worker stops and done rejects with the AgentFleetError', async () => {
      server.faults.claim.push({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'The key lacks tasks:work' } } });
      const running = workerWith(async () => 'never');
      const failure = await running.done.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AgentFleetError);
      expect(failure).toMatchObject({ status: 403, message: '403 FORBIDDEN: The key lacks tasks:work' });
      expect(server.callsOf('claim')).toHaveLength(1);
      await running.stop();
    });
  });
});
