import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { loadApiDocument } from '../../src/contract/openapi';
import type { Config } from '../../src/config/config';
import { connectDatabase } from '../../src/data/database';
import type { WebhookEngine } from '../../src/process/webhook-engine';
import { describeEachDatabase, describeWithPostgres, startTestApp, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';
import { eventually, insertEvent, startReceiver, startTestEngine, type Receiver } from '../support/webhooks';

const SERVICE_KEY = 'webhook-restart-service-key-0123456789';

const WEBHOOKS: Config['webhooks'] = { allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 1000, retryScheduleMs: [50, 100], pollMs: 60_000, concurrency: 8 };

type Delivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  attempt_log: Array<{ attempted_at: string; status_code: number | null; error: string | null; duration_ms: number }>;
};

/** HMAC-SHA256 by openssl, not by the library that signed: `{id}.{timestamp}.{body}` keyed by the secret's bytes, in base64. */
function opensslSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64').toString('hex');
  const mac = execFileSync('openssl', ['dgst', '-sha256', '-mac', 'HMAC', '-macopt', `hexkey:${key}`, '-binary'], { input: `${id}.${timestamp}.${body}` });
  return execFileSync('base64', ['-w0'], { input: mac }).toString('utf8').trim();
}

async function deliveriesOf(owner: SignedInUser, webhookId: string): Promise<Delivery[]> {
  const res = await owner.http.get(`/api/v1/webhooks/${webhookId}/deliveries`).expect(200);
  return res.body.data as Delivery[];
}

describeEachDatabase(
  'webhook deliveries',
  (get) => {
    let owner: SignedInUser;
    let receiver: Receiver;
    let engine: WebhookEngine;
    beforeAll(async () => {
      owner = await get().signUp();
      engine = startTestEngine(get().database.db, get().config);
    });
    beforeEach(async () => {
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await receiver.close();
    });
    afterAll(async () => {
      await engine.stop();
    });

    const create = async (user: SignedInUser, body: Record<string, unknown>) => (await user.http.post('/api/v1/webhooks').send(body).expect(201)).body.data as { id: string; secret: string };
    /** Pokes the engine until `check` passes: retries are due within the test schedule's 50 and 100 ms. */
    const deliverUntil = <T>(check: () => Promise<T>, timeoutMs?: number) =>
      eventually(async () => {
        await engine.poke();
        return check();
      }, timeoutMs);

    it('when an event is delivered, then the request is what api.yaml\'s webhooks section declares: every declared header as its schema says, the body an Event', async () => {
      const document = loadApiDocument() as unknown as { webhooks: Record<string, { post: { parameters: Array<{ name: string; in: string; required: boolean; schema: object }>; requestBody: { content: Record<string, { schema: object }> } } }>; components: object };
      const declared = document.webhooks['fleetEvent']?.post;
      if (!declared) throw new Error('api.yaml declares no fleetEvent webhook');
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      addFormats(ajv);
      ajv.addSchema({ $id: 'doc', components: document.components });
      const withDocument = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object;
      const webhook = await create(owner, { url: receiver.url });
      const eventId = await insertEvent(get().database.db, { type: 'task.created', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID(), data: { status: 'queued', title: 'declared' } });
      await deliverUntil(async () => expect(receiver.received).toHaveLength(1));
      const { headers, body } = receiver.received[0] as { headers: Record<string, string | string[] | undefined>; body: string };
      for (const parameter of declared.parameters.filter((item) => item.in === 'header')) {
        const value = headers[parameter.name.toLowerCase()];
        if (parameter.required) expect({ header: parameter.name, present: typeof value === 'string' }).toEqual({ header: parameter.name, present: true });
        const valid = ajv.compile(withDocument(parameter.schema));
        expect({ header: parameter.name, valid: valid(value), errors: valid.errors ?? null }).toEqual({ header: parameter.name, valid: true, errors: null });
      }
      expect(Object.keys(declared.requestBody.content)).toEqual([headers['content-type']]);
      const validBody = ajv.compile(withDocument(declared.requestBody.content['application/json']!.schema));
      expect({ valid: validBody(JSON.parse(body)), errors: validBody.errors ?? null }).toEqual({ valid: true, errors: null });
      expect(headers['webhook-id']).toBe(eventId);
      expect(new Webhook(webhook.secret).verify(body, headers as Record<string, string>)).toMatchObject({ id: eventId });
    });

    it('when the endpoint fails (500) and then succeeds, then it gets the same webhook-id twice, signed as openssl and the Standard Webhooks verifier agree, and the log shows both attempts', async () => {
      const webhook = await create(owner, { url: receiver.url });
      let calls = 0;
      receiver.answer((_req, res) => {
        calls += 1;
        res.writeHead(calls === 1 ? 500 : 200, { 'content-type': 'text/plain' }).end(calls === 1 ? 'try later' : 'ok');
      });
      const agentId = randomUUID();
      const taskId = randomUUID();
      // Its worker's agent key reported the outcome.
      const actor = { type: 'agent_key' as const, id: randomUUID() };
      const eventId = await insertEvent(get().database.db, { type: 'task.succeeded', agent_id: agentId, owner_id: owner.user.id, actor, task_id: taskId, data: { status: 'succeeded', previous_status: 'running' } });

      const [delivery] = await deliverUntil(async () => {
        const deliveries = await deliveriesOf(owner, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        return deliveries;
      });
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual([eventId, eventId]);
      expect(delivery).toEqual({
        id: expect.any(String),
        webhook_id: webhook.id,
        event_id: eventId,
        event_type: 'task.succeeded',
        status: 'succeeded',
        attempts: 2,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        attempt_log: [
          { attempted_at: expect.any(String), status_code: 500, error: 'answered 500: only 2xx is a success', duration_ms: expect.any(Number) },
          { attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number) },
        ],
      });
      // The retry waited for the schedule's first delay (50 ms) after the first attempt.
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(45);

      for (const entry of receiver.received) {
        const { headers, body } = entry;
        expect(headers['content-type']).toBe('application/json');
        expect(headers['user-agent']).toMatch(/^agent-fleet-webhooks\//);
        // The agent is in its owner's personal workspace, whose id is the owner's.
        expect(JSON.parse(body)).toEqual({
          id: eventId,
          type: 'task.succeeded',
          occurred_at: expect.any(String),
          agent_id: agentId,
          workspace_id: owner.user.id,
          actor,
          task_id: taskId,
          data: { status: 'succeeded', previous_status: 'running' },
        });
        const timestamp = String(headers['webhook-timestamp']);
        expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(10);
        expect(headers['webhook-signature']).toBe(`v1,${opensslSignature(webhook.secret, eventId, timestamp, body)}`);
        expect(new Webhook(webhook.secret).verify(body, headers as Record<string, string>)).toEqual(JSON.parse(body));
        expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, headers as Record<string, string>)).toThrow();
      }
    });

    it('when the endpoint keeps failing, then it is tried once and again after each delay of the schedule, and the delivery is failed', async () => {
      const webhook = await create(owner, { url: receiver.url });
      receiver.answer((_req, res) => res.writeHead(503).end());
      await insertEvent(get().database.db, { type: 'agent.created', agent_id: randomUUID(), owner_id: owner.user.id });
      const [delivery] = await deliverUntil(async () => {
        const deliveries = await deliveriesOf(owner, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'failed' })]);
        return deliveries;
      });
      expect(delivery).toMatchObject({ attempts: 3, last_status_code: 503, last_error: 'answered 503: only 2xx is a success', next_attempt_at: null });
      expect(delivery!.attempt_log.map((attempt) => attempt.status_code)).toEqual([503, 503, 503]);
      expect(receiver.received).toHaveLength(3);
    });

    it('when the endpoint redirects, then the redirect is not followed and the attempt failed with its status', async () => {
      const elsewhere = await startReceiver();
      try {
        const webhook = await create(owner, { url: receiver.url, types: ['agent.updated'] });
        receiver.answer((_req, res) => res.writeHead(307, { location: elsewhere.url }).end());
        await insertEvent(get().database.db, { type: 'agent.updated', agent_id: randomUUID(), owner_id: owner.user.id });
        const [delivery] = await deliverUntil(async () => {
          const deliveries = await deliveriesOf(owner, webhook.id);
          expect(deliveries[0]?.attempt_log.length).toBeGreaterThanOrEqual(1);
          return deliveries;
        });
        expect(delivery!.attempt_log[0]).toEqual({
          attempted_at: expect.any(String),
          status_code: 307,
          error: `redirect answered (307 to ${elsewhere.url}): redirects are not followed`,
          duration_ms: expect.any(Number),
        });
        expect(elsewhere.received).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });

    it('when the endpoint does not answer in time, then the attempt is cut off at the timeout and failed', async () => {
      // The suite's engine (1 s timeout, two retries) claims whatever is due each time one of its
      // attempts ends (an earlier test's retry): it would race this one for the delivery.
      await engine.stop();
      const slow = startTestEngine(get().database.db, get().config, { timeoutMs: 300, retryScheduleMs: [] });
      try {
        const webhook = await create(owner, { url: receiver.url, types: ['task.created'] });
        receiver.answer(() => {
          // Never answers.
        });
        await insertEvent(get().database.db, { type: 'task.created', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID() });
        const started = Date.now();
        await slow.poke();
        const [delivery] = await eventually(async () => {
          const deliveries = await deliveriesOf(owner, webhook.id);
          expect(deliveries).toEqual([expect.objectContaining({ status: 'failed' })]);
          return deliveries;
        });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(delivery!.attempt_log).toEqual([{ attempted_at: expect.any(String), status_code: null, error: 'no answer within 300 ms', duration_ms: expect.any(Number) }]);
        expect(delivery!.attempt_log[0]!.duration_ms).toBeGreaterThanOrEqual(290);
      } finally {
        await slow.stop();
        engine = startTestEngine(get().database.db, get().config);
      }
    });

    it('when the endpoint answers 2xx with an endless body, then at most 64 KiB is read, the connection is dropped, and the delivery succeeded', async () => {
      const webhook = await create(owner, { url: receiver.url, types: ['task.progress'] });
      let written = 0;
      const closed = new Promise<void>((resolve) => {
        receiver.answer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const pump = () => {
            while (!res.destroyed && written < 50 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          };
          res.on('drain', pump);
          res.on('close', () => resolve());
          pump();
        });
      });
      await insertEvent(get().database.db, { type: 'task.progress', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID(), data: { progress: { percent: 5 } } });
      await engine.poke();
      await closed;
      const [delivery] = await eventually(async () => {
        const deliveries = await deliveriesOf(owner, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        return deliveries;
      });
      expect(delivery!.attempt_log).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
      expect(written).toBeLessThan(50 * 1024 * 1024);
    });

    it('when events happen, then each endpoint receives only those after its creation, of its types, of its workspace', async () => {
      const db = get().database.db;
      const stranger = await get().signUp();
      const admin = await get().signUp({ role: 'admin' });
      const before = await insertEvent(db, { type: 'agent.created', agent_id: randomUUID(), owner_id: owner.user.id });
      const mine = await create(owner, { url: receiver.url });
      const onlyFailures = await create(owner, { url: receiver.url, types: ['task.failed'] });
      // A platform admin's endpoint is their personal workspace's, as anyone's: it does not receive every user's events.
      const admins = await create(admin, { url: receiver.url });
      // A service key's is the `service` workspace's: it receives the events of the agents created with the key.
      const service = (await get().anonymous.post('/api/v1/webhooks').set('X-API-Key', TEST_API_KEY).send({ url: receiver.url }).expect(201)).body.data as { id: string };
      const theirs = await create(stranger, { url: receiver.url });
      const disabled = await create(owner, { url: receiver.url });
      await owner.http.patch(`/api/v1/webhooks/${disabled.id}`).send({ enabled: false }).expect(200);

      const ownAgent = await insertEvent(db, { type: 'agent.updated', agent_id: randomUUID(), owner_id: owner.user.id });
      const ownFailure = await insertEvent(db, { type: 'task.failed', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID() });
      const strangers = await insertEvent(db, { type: 'task.created', agent_id: randomUUID(), owner_id: stranger.user.id, task_id: randomUUID() });
      const adminsAgent = await insertEvent(db, { type: 'agent.updated', agent_id: randomUUID(), owner_id: admin.user.id });
      const serviceAgent = await insertEvent(db, { type: 'agent.created', agent_id: randomUUID(), owner_id: null });

      const ids = async (webhookId: string, user: SignedInUser) => (await deliveriesOf(user, webhookId)).map((delivery) => delivery.event_id).sort();
      // The last event fanned out is the service agent's: every delivery is there by then.
      await deliverUntil(async () => expect(await ids(service.id, admin)).toEqual([serviceAgent]));
      expect(await ids(admins.id, admin)).toEqual([adminsAgent]);
      // Creating and changing endpoints is the owner's workspace's audit trail: `mine` (every type)
      // receives what came after its creation, never its own `webhook.created`.
      const audit = (await owner.http.get(`/api/v1/events?workspace_id=${owner.user.id}&types=webhook.created,webhook.updated&after=${before}&limit=100`).expect(200)).body.data as Array<{
        id: string;
        type: string;
        actor: unknown;
        data: { id: string };
      }>;
      expect(audit.map((event) => [event.type, event.data.id, event.actor])).toEqual(
        [
          ['webhook.created', mine.id],
          ['webhook.created', onlyFailures.id],
          ['webhook.created', disabled.id],
          ['webhook.updated', disabled.id],
        ].map(([type, id]) => [type, id, { type: 'user', id: owner.user.id }]),
      );
      expect(await ids(mine.id, owner)).toEqual([ownAgent, ownFailure, ...audit.slice(1).map((event) => event.id)].sort());
      expect(await ids(onlyFailures.id, owner)).toEqual([ownFailure]);
      expect(await ids(theirs.id, stranger)).toEqual([strangers]);
      expect(await ids(disabled.id, owner)).toEqual([]);
      expect(receiver.received.map((entry) => entry.headers['webhook-id'])).not.toContain(before);
    });

    it('when the endpoint is deleted, then its deliveries go with it and no new attempt starts', async () => {
      const webhook = await create(owner, { url: receiver.url, types: ['task.deleted'] });
      receiver.answer((_req, res) => res.writeHead(500).end());
      await insertEvent(get().database.db, { type: 'task.deleted', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID() });
      await deliverUntil(async () => expect(receiver.received.length).toBeGreaterThanOrEqual(1));
      await owner.http.delete(`/api/v1/webhooks/${webhook.id}`).expect(204);
      expect(await get().database.db('webhook_deliveries').where({ webhook_id: webhook.id })).toEqual([]);
      // A retry claimed just before the delete (an attempt slower than the 50 ms schedule makes the
      // next one due at once) is already on its way, and may still arrive: what was deleted starts
      // no new attempt. A local answer comes well within 300 ms.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      await engine.poke();
      expect(receiver.received).toHaveLength(sent);
    });
  },
  { webhooks: WEBHOOKS },
);

describe('a name that starts resolving to a private address', () => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { webhooks: { ...WEBHOOKS, allowPrivateNetworks: false } }, { resolveHost: async () => ['93.184.216.34'] });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('when the endpoint’s name resolved to a public address at creation and resolves to loopback now, then the connection is refused at delivery and nothing reaches it', async () => {
    const port = new URL(receiver.url).port;
    const created = await app.http.post('/api/v1/webhooks').send({ url: `http://hooks.rebinding.test:${port}/hook` });
    expect(created.status).toBe(201);
    const rebound = startTestEngine(app.database.db, app.config, {
      allowPrivateNetworks: false,
      retryScheduleMs: [],
      // The name now resolves to 127.0.0.1, where the receiver listens.
      lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as never,
    });
    try {
      await insertEvent(app.database.db, { type: 'agent.created', agent_id: randomUUID(), owner_id: app.user.user.id });
      const [delivery] = await eventually(async () => {
        await rebound.poke();
        const deliveries = (await app.http.get(`/api/v1/webhooks/${created.body.data.id}/deliveries`).expect(200)).body.data as Delivery[];
        expect(deliveries).toEqual([expect.objectContaining({ status: 'failed' })]);
        return deliveries;
      });
      expect(delivery!.attempt_log).toEqual([{ attempted_at: expect.any(String), status_code: null, error: expect.stringContaining('127.0.0.1'), duration_ms: expect.any(Number) }]);
      expect(delivery!.attempt_log[0]!.error).toMatch(/not allowed/);
      expect(receiver.received).toEqual([]);
    } finally {
      await rebound.stop();
    }
  });
});

describeWithPostgres('two engines on one PostgreSQL database', () => {
  it('when two processes deliver the same backlog at once, then each event reaches the endpoint exactly once and no delivery has two attempts at a time', async () => {
    const app = await startTestApp('pg', { webhooks: WEBHOOKS });
    const second = await connectDatabase(app.database.config, { searchPath: app.database.searchPath });
    const receiver = await startReceiver();
    const engines: WebhookEngine[] = [];
    try {
      const active = new Map<string, number>();
      let overlaps = 0;
      receiver.answer((req, res) => {
        const id = String(req.headers['webhook-id']);
        active.set(id, (active.get(id) ?? 0) + 1);
        if ((active.get(id) ?? 0) > 1) overlaps += 1;
        setTimeout(() => {
          active.set(id, (active.get(id) ?? 1) - 1);
          res.writeHead(204).end();
        }, 20);
      });
      await app.http.post('/api/v1/webhooks').send({ url: receiver.url }).expect(201);
      const events: string[] = [];
      for (let i = 0; i < 40; i += 1) events.push(await insertEvent(app.database.db, { type: 'task.created', agent_id: randomUUID(), owner_id: app.user.user.id, task_id: randomUUID() }));
      engines.push(startTestEngine(app.database.db, app.config, { pollMs: 20, concurrency: 4 }), startTestEngine(second, app.config, { pollMs: 20, concurrency: 4 }));
      await eventually(async () => expect(new Set(receiver.received.map((entry) => entry.headers['webhook-id'])).size).toBe(events.length), 15_000);
      await Promise.all(engines.map((engine) => engine.stop()));
      const delivered = receiver.received.map((entry) => String(entry.headers['webhook-id'])).sort();
      expect(delivered).toEqual([...events].sort());
      expect(overlaps).toBe(0);
      const rows = await app.database.db('webhook_deliveries').select('status', 'attempts');
      expect(rows).toHaveLength(events.length);
      expect(rows.every((row) => row.status === 'succeeded' && Number(row.attempts) === 1)).toBe(true);
    } finally {
      await Promise.all(engines.map((engine) => engine.stop()));
      await receiver.close();
      await second.destroy();
      await app.close();
    }
  });
});

describe('a delivery pending when the process stops', () => {
  const servers = useServerProcesses();

  it('when the service is stopped with a delivery still to retry, then a new process delivers it after the restart', async () => {
    const receiver = await startReceiver();
    try {
      const env = serviceEnv(SERVICE_KEY, {
        DATABASE_URL: `sqlite:${path.join(servers.tempDir(), 'fleet.sqlite')}`,
        TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_MS: '50',
        // Long enough for the retry to fall to the process started after the first stopped.
        WEBHOOK_RETRY_SCHEDULE: '3s',
      });
      receiver.answer((_req, res) => res.writeHead(500).end());
      const first = servers.spawn(env);
      const base = `http://127.0.0.1:${await listeningPort(first)}`;
      const headers = { 'X-API-Key': SERVICE_KEY, 'Content-Type': 'application/json' };
      const created = await fetch(`${base}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url }) });
      expect(created.status).toBe(201);
      const webhookId = ((await created.json()) as { data: { id: string } }).data.id;
      const agent = await fetch(`${base}/api/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'restarted', type: 'type_a' }) });
      expect(agent.status).toBe(201);

      const deliveries = async (url: string) => {
        const res = await fetch(`${url}/api/v1/webhooks/${webhookId}/deliveries`, { headers });
        expect(res.status).toBe(200);
        return ((await res.json()) as { data: Delivery[] }).data;
      };
      // The agent's creation is the event: its delivery failed once and waits for its retry.
      const [pending] = await eventually(async () => {
        const now = await deliveries(base);
        expect(now).toEqual([expect.objectContaining({ event_type: 'agent.created', status: 'pending', attempts: 1, last_status_code: 500 })]);
        return now;
      });
      const eventId = (pending as Delivery).event_id;
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });

      receiver.answer((_req, res) => res.writeHead(204).end());
      const second = servers.spawn(env);
      const restarted = `http://127.0.0.1:${await listeningPort(second)}`;
      const [delivery] = await eventually(async () => {
        const now = await deliveries(restarted);
        expect(now).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        return now;
      }, 10_000);
      expect(delivery).toMatchObject({ event_id: eventId, attempts: 2, last_status_code: 204 });
      expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual([eventId, eventId]);
    } finally {
      await receiver.close();
    }
  });
});
