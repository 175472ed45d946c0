import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../src/config/config';
import { createStore } from '../../src/data/store';
import { claimDelivery, recordAttempt } from '../../src/domain/webhook-deliveries';
import type { WebhookEngine } from '../../src/process/webhook-engine';
import { DATABASE_KINDS, describeEachDatabase, reachableDatabaseKinds, startTestApp, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';
import { eventually, insertEvent, startReceiver, startTestEngine, type Receiver } from '../support/webhooks';

/** No retry: a failed attempt leaves the delivery `failed` at once. The suites' engines run when poked. */
const WEBHOOKS: Config['webhooks'] = { allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 2000, retryScheduleMs: [], pollMs: 60_000, concurrency: 4 };

type Delivery = {
  id: string;
  webhook_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  attempt_log: Array<{ status_code: number | null; error: string | null }>;
};

const attemptsPath = (webhookId: string, deliveryId: string) => `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/attempts`;

async function deliveriesOf(user: SignedInUser, webhookId: string): Promise<Delivery[]> {
  return (await user.http.get(`/api/v1/webhooks/${webhookId}/deliveries`).expect(200)).body.data as Delivery[];
}

/** One delivery as the endpoint's log lists it. */
async function deliveryOf(user: SignedInUser, webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
  return (await deliveriesOf(user, webhookId)).find((delivery) => delivery.id === deliveryId);
}

describeEachDatabase(
  'sending a webhook delivery again',
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

    const createWebhook = async (user: SignedInUser = owner, body: Record<string, unknown> = {}) =>
      (await user.http.post('/api/v1/webhooks').send({ url: receiver.url, ...body }).expect(201)).body.data as { id: string; secret: string };
    /** Pokes the engine until `check` passes. */
    const deliverUntil = <T>(check: () => Promise<T>) =>
      eventually(async () => {
        await engine.poke();
        return check();
      });
    /** An endpoint of `user` with one delivery whose first attempt came to `status` (the receiver answering `code`). */
    async function deliveryThat(status: 'succeeded' | 'failed', code: number, user: SignedInUser = owner) {
      const webhook = await createWebhook(user);
      receiver.answer((_req, res) => res.writeHead(code).end());
      const eventId = await insertEvent(get().database.db, { type: 'task.failed', agent_id: randomUUID(), owner_id: user.user.id, task_id: randomUUID(), data: { status: 'failed' } });
      const [delivery] = await deliverUntil(async () => {
        const deliveries = await deliveriesOf(user, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status, attempts: 1 })]);
        return deliveries;
      });
      return { webhook, eventId, delivery: delivery as Delivery };
    }

    it('when a failed delivery is sent again once the endpoint is fixed, then 202 answers it pending and due now, and it succeeds with the same webhook-id, signed', async () => {
      const { webhook, eventId, delivery } = await deliveryThat('failed', 500);
      receiver.answer((_req, res) => res.writeHead(204).end());

      const before = Date.now();
      const res = await owner.http.post(attemptsPath(webhook.id, delivery.id));
      expect(res.status).toBe(202);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        data: {
          ...delivery,
          status: 'pending',
          next_attempt_at: expect.any(String),
          updated_at: expect.any(String),
        },
        meta: { timestamp: expect.any(String) },
      });
      expect(Date.parse(res.body.data.next_attempt_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(res.body.data.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
      // As the log lists it.
      expect((await deliveriesOf(owner, webhook.id))[0]).toEqual(res.body.data);

      const [redelivered] = await deliverUntil(async () => {
        const deliveries = await deliveriesOf(owner, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        return deliveries;
      });
      expect(redelivered).toMatchObject({ id: delivery.id, event_id: eventId, attempts: 2, last_status_code: 204, last_error: null, next_attempt_at: null });
      expect(redelivered!.attempt_log.map((attempt) => attempt.status_code)).toEqual([500, 204]);
      expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual([eventId, eventId]);
      const [first, second] = receiver.received;
      expect(second!.body).toBe(first!.body);
      expect(new Webhook(webhook.secret).verify(second!.body, second!.headers as Record<string, string>)).toMatchObject({ id: eventId, type: 'task.failed' });
    });

    it('when a succeeded delivery is sent again, then the endpoint gets the event once more and the log shows both attempts', async () => {
      const { webhook, eventId, delivery } = await deliveryThat('succeeded', 200);
      await owner.http.post(attemptsPath(webhook.id, delivery.id)).expect(202);
      const [again] = await deliverUntil(async () => {
        const deliveries = await deliveriesOf(owner, webhook.id);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
        return deliveries;
      });
      expect(again!.attempt_log.map((attempt) => attempt.status_code)).toEqual([200, 200]);
      expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual([eventId, eventId]);
    });

    it('when a pending delivery waiting for its retry is sent again, then it is brought forward to now and, failing again, keeps to the rest of the schedule', async () => {
      // An engine whose schedule waits an hour after the first failure, then gives up after the second.
      const patient = startTestEngine(get().database.db, get().config, { retryScheduleMs: [3_600_000, 3_600_000] });
      try {
        const webhook = await createWebhook();
        receiver.answer((_req, res) => res.writeHead(503).end());
        await insertEvent(get().database.db, { type: 'agent.updated', agent_id: randomUUID(), owner_id: owner.user.id });
        const [waiting] = await eventually(async () => {
          await patient.poke();
          const deliveries = await deliveriesOf(owner, webhook.id);
          expect(deliveries).toEqual([expect.objectContaining({ status: 'pending', attempts: 1 })]);
          return deliveries;
        });
        expect(Date.parse(waiting!.next_attempt_at ?? '')).toBeGreaterThan(Date.now() + 3_000_000);

        const res = await owner.http.post(attemptsPath(webhook.id, waiting!.id)).expect(202);
        expect(Date.parse(res.body.data.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
        const [after] = await eventually(async () => {
          await patient.poke();
          const deliveries = await deliveriesOf(owner, webhook.id);
          expect(deliveries).toEqual([expect.objectContaining({ attempts: 2 })]);
          return deliveries;
        });
        // The schedule's second delay: pending again, an hour on.
        expect(after).toMatchObject({ status: 'pending', last_status_code: 503 });
        expect(Date.parse(after!.next_attempt_at ?? '')).toBeGreaterThan(Date.now() + 3_000_000);
        expect(receiver.received).toHaveLength(2);
      } finally {
        await patient.stop();
      }
    });

    it('when an attempt is under way, then sending it again answers 409 and changes nothing; once the attempt ends, it may be sent again', async () => {
      const webhook = await createWebhook();
      let release: () => void = () => undefined;
      receiver.answer((_req, res) => {
        release = () => res.writeHead(204).end();
      });
      await insertEvent(get().database.db, { type: 'task.created', agent_id: randomUUID(), owner_id: owner.user.id, task_id: randomUUID() });
      await deliverUntil(async () => expect(receiver.received).toHaveLength(1));
      const [held] = await deliveriesOf(owner, webhook.id);

      const refused = await owner.http.post(attemptsPath(webhook.id, held!.id));
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/under way/) });
      expect((await deliveriesOf(owner, webhook.id))[0]).toEqual(held);

      release();
      await eventually(async () => expect((await deliveriesOf(owner, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 }));
      receiver.answer((_req, res) => res.writeHead(204).end());
      await owner.http.post(attemptsPath(webhook.id, held!.id)).expect(202);
      await deliverUntil(async () => expect((await deliveriesOf(owner, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 }));
    });

    it('when the sender that held a delivery died (its claim expired), then it may be sent again, and the dead sender’s late record is refused: the attempt is made again', async () => {
      const { webhook, delivery } = await deliveryThat('failed', 500);
      const store = createStore(get().database.db);
      // Due a minute from now, claimed by a sender whose clock is there: the suite's engine (whose
      // next pass may start at any moment, after its last attempt) does not see it due yet. A claim
      // takes whichever delivery is due first, so the earlier tests' pending ones are put off.
      const ahead = Date.now() + 60_000;
      await get().database.db('webhook_deliveries').where({ id: delivery.id }).update({ status: 'pending', next_attempt_at: new Date(ahead).toISOString() });
      await get().database.db('webhook_deliveries').whereNot({ id: delivery.id }).andWhere({ status: 'pending' }).update({ next_attempt_at: new Date(ahead + 3_600_000).toISOString() });
      const claim = await claimDelivery(store, WEBHOOKS.timeoutMs, () => ahead + 1000);
      expect(claim?.id).toBe(delivery.id);
      await owner.http.post(attemptsPath(webhook.id, delivery.id)).expect(409);
      // The claim's lease runs out, its sender never having recorded anything.
      await get().database.db('webhook_deliveries').where({ id: delivery.id }).update({ locked_until: new Date(Date.now() - 1000).toISOString() });

      await owner.http.post(attemptsPath(webhook.id, delivery.id)).expect(202);
      const late = await recordAttempt(store, claim!, { startedAt: Date.now(), durationMs: 5, statusCode: 200, error: null }, []);
      expect(late).toBeFalsy();
      expect((await deliveriesOf(owner, webhook.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
      receiver.answer((_req, res) => res.writeHead(204).end());
      await deliverUntil(async () => expect((await deliveriesOf(owner, webhook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 }));
    });

    it('when the endpoint is disabled, then sending a delivery again answers 409 and changes nothing', async () => {
      const { webhook, delivery } = await deliveryThat('failed', 500);
      await owner.http.patch(`/api/v1/webhooks/${webhook.id}`).send({ enabled: false }).expect(200);
      const refused = await owner.http.post(attemptsPath(webhook.id, delivery.id));
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/disabled/) });
      expect((await deliveriesOf(owner, webhook.id))[0]).toEqual(delivery);
    });

    it('when the delivery or the endpoint is not one the caller manages, then 404; an agent key gets 403; an admin and a service key reach every one', async () => {
      const { webhook, delivery } = await deliveryThat('failed', 500);
      const other = await createWebhook();
      const stranger = await get().signUp();
      const notFound = [
        await owner.http.post(attemptsPath(webhook.id, randomUUID())),
        await owner.http.post(attemptsPath(webhook.id, 'not-a-delivery')),
        // Another endpoint's delivery, even of the same owner.
        await owner.http.post(attemptsPath(other.id, delivery.id)),
        await owner.http.post(attemptsPath(randomUUID(), delivery.id)),
        await stranger.http.post(attemptsPath(webhook.id, delivery.id)),
      ];
      for (const res of notFound) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND' });
      }
      expect(notFound[0]!.body.error.message).toBe('Webhook delivery not found');
      expect(notFound[4]!.body.error.message).toBe('Webhook not found');

      const agent = (await owner.http.post('/api/v1/agents').send({ name: 'redelivering', type: 'type_a' }).expect(201)).body.data.id as string;
      const key = (await owner.http.post(`/api/v1/agents/${agent}/keys`).send({ name: 'k' }).expect(201)).body.data.secret as string;
      const forbidden = await get().anonymous.post(attemptsPath(webhook.id, delivery.id)).set('X-API-Key', key);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error).toMatchObject({ code: 'FORBIDDEN' });
      expect((await get().anonymous.post(attemptsPath(webhook.id, delivery.id))).status).toBe(401);
      expect(await deliveryOf(owner, webhook.id, delivery.id)).toEqual(delivery);

      const admin = await get().signUp({ role: 'admin' });
      expect((await admin.http.post(attemptsPath(webhook.id, delivery.id)).expect(202)).body.data).toMatchObject({ id: delivery.id, status: 'pending' });
      await deliverUntil(async () => expect(await deliveryOf(owner, webhook.id, delivery.id)).toMatchObject({ status: 'failed', attempts: 2 }));
      await get().anonymous.post(attemptsPath(webhook.id, delivery.id)).set('X-API-Key', TEST_API_KEY).expect(202);
    });
  },
  { webhooks: WEBHOOKS },
);

describe.each(DATABASE_KINDS)('a delivery sent again, on the instance that answered [%s]', (kind) => {
  const run = reachableDatabaseKinds().includes(kind) ? it : it.skip;
  let app: TestApp;
  let engine: WebhookEngine | undefined;
  let receiver: Receiver;
  beforeAll(async () => {
    // The app wakes its process's engine, as serve.ts wires them; the engine's own poll is an hour away.
    app = await startTestApp(kind, { webhooks: WEBHOOKS }, { deliveriesDue: () => void engine?.poke() });
    engine = startTestEngine(app.database.db, app.config, { pollMs: 3_600_000 });
    receiver = await startReceiver();
  }, 30_000);
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
    await app?.close();
  });

  run('when a delivery is sent again, then this process’s sender makes the attempt at once, without waiting for its poll', async () => {
    const webhook = (await app.http.post('/api/v1/webhooks').send({ url: receiver.url }).expect(201)).body.data as { id: string };
    receiver.answer((_req, res) => res.writeHead(500).end());
    await insertEvent(app.database.db, { type: 'agent.created', agent_id: randomUUID(), owner_id: app.user.user.id });
    await engine?.poke();
    const [failed] = await eventually(async () => {
      const deliveries = (await app.http.get(`/api/v1/webhooks/${webhook.id}/deliveries`).expect(200)).body.data as Delivery[];
      expect(deliveries).toEqual([expect.objectContaining({ status: 'failed' })]);
      return deliveries;
    });
    receiver.answer((_req, res) => res.writeHead(204).end());
    await app.http.post(attemptsPath(webhook.id, failed!.id)).expect(202);
    await eventually(async () => {
      const [delivery] = (await app.http.get(`/api/v1/webhooks/${webhook.id}/deliveries`).expect(200)).body.data as Delivery[];
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
    }, 3000);
  });
});
