import { createWebhookSealer } from '../../src/app';
import { secretContext } from '../../src/domain/webhooks';
import { describeEachDatabase, TEST_API_KEY, type SignedInUser } from '../support/harness';

/** A public address that needs no name resolution: creates pass the network check without DNS. */
const PUBLIC_URL = 'https://93.184.216.34/hooks/fleet';

const WEBHOOK_SHAPE = {
  id: expect.any(String),
  owner_id: expect.any(String),
  workspace_id: expect.any(String),
  url: PUBLIC_URL,
  types: null,
  description: null,
  enabled: true,
  created_at: expect.any(String),
  updated_at: expect.any(String),
};

type Webhook = { id: string; owner_id: string | null; url: string; secret: string; enabled: boolean; types: string[] | null };

async function newWebhook(owner: SignedInUser, body: Record<string, unknown> = { url: PUBLIC_URL }): Promise<Webhook> {
  const res = await owner.http.post('/api/v1/webhooks').send(body).expect(201);
  return res.body.data as Webhook;
}

describeEachDatabase('webhook endpoints', (get) => {
  let owner: SignedInUser;
  beforeAll(async () => {
    owner = await get().signUp();
  });

  describe('create, read, list, change, delete', () => {
    it('when a user creates an endpoint, then 201 answers it with its secret (once), Location and Cache-Control: no-store', async () => {
      const res = await owner.http.post('/api/v1/webhooks').set('X-Request-ID', 'webhook-create').send({ url: PUBLIC_URL });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toBe('webhook-create');
      expect(res.headers.location).toBe(`/api/v1/webhooks/${res.body.data.id}`);
      expect(res.body).toEqual({
        data: { ...WEBHOOK_SHAPE, owner_id: owner.user.id, workspace_id: owner.user.id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) },
        meta: { timestamp: expect.any(String) },
      });
      expect(Buffer.from(res.body.data.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    });

    it('when the endpoint is read or listed, then the secret never appears, and the row holds it sealed (it opens with the service key only)', async () => {
      const webhook = await newWebhook(owner, { url: PUBLIC_URL, types: ['task.succeeded', 'task.failed'], description: 'CI notifier' });
      const read = await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200);
      expect(read.headers['cache-control']).toBe('private, no-cache');
      expect(read.body).toEqual({
        data: { ...WEBHOOK_SHAPE, id: webhook.id, owner_id: owner.user.id, workspace_id: owner.user.id, types: ['task.succeeded', 'task.failed'], description: 'CI notifier' },
        meta: { timestamp: expect.any(String) },
      });
      const list = await owner.http.get('/api/v1/webhooks').expect(200);
      const secretPart = webhook.secret.slice('whsec_'.length);
      for (const text of [read.text, list.text]) {
        expect(text).not.toContain(secretPart);
        expect(text).not.toContain('secret');
      }
      const row = await get().database.db('webhooks').where({ id: webhook.id }).first();
      expect(JSON.stringify(row)).not.toContain(secretPart);
      const sealer = createWebhookSealer(get().config.tokenEncryptionKey);
      expect(sealer.open(row.secret_sealed, secretContext(webhook.id))).toBe(webhook.secret);
      expect(() => sealer.open(row.secret_sealed, secretContext('another-endpoint'))).toThrow();
    });

    it('when endpoints are listed, then they come newest first in cursor pages', async () => {
      const user = await get().signUp();
      const made = [];
      for (let i = 0; i < 3; i += 1) made.push(await newWebhook(user));
      const first = await user.http.get('/api/v1/webhooks?limit=2').expect(200);
      expect(first.body.data.map((webhook: Webhook) => webhook.id)).toEqual([made[2]!.id, made[1]!.id]);
      expect(first.body.meta).toEqual({ nextCursor: made[1]!.id, hasMore: true });
      const second = await user.http.get(`/api/v1/webhooks?limit=2&cursor=${first.body.meta.nextCursor}`).expect(200);
      expect(second.body.data.map((webhook: Webhook) => webhook.id)).toEqual([made[0]!.id]);
      expect(second.body.meta).toEqual({ nextCursor: null, hasMore: false });
    });

    it('when an endpoint is changed, then url, types, description and enabled change and updated_at moves', async () => {
      const webhook = await newWebhook(owner, { url: PUBLIC_URL, types: ['agent.created'], description: 'first' });
      const before = (await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200)).body.data;
      const res = await owner.http
        .patch(`/api/v1/webhooks/${webhook.id}`)
        .send({ url: 'https://93.184.216.34/elsewhere', types: null, description: null, enabled: false });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...before, url: 'https://93.184.216.34/elsewhere', types: null, description: null, enabled: false, updated_at: expect.any(String) });
      expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect((await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200)).body.data).toEqual(res.body.data);
    });

    it('when an endpoint is deleted, then 204, and it reads as missing from then on', async () => {
      const webhook = await newWebhook(owner);
      const res = await owner.http.delete(`/api/v1/webhooks/${webhook.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await owner.http.get(`/api/v1/webhooks/${webhook.id}`)).status).toBe(404);
      expect((await owner.http.delete(`/api/v1/webhooks/${webhook.id}`)).status).toBe(404);
    });

    it('when a real client creates and reads an endpoint over HTTP, then the answers are the same', async () => {
      const base = await get().listen();
      const created = await fetch(`${base}/api/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: PUBLIC_URL, types: ['task.created'] }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const body = (await created.json()) as { data: Webhook };
      const read = await fetch(`${base}${created.headers.get('location')}`, { headers: { Authorization: `Bearer ${owner.token}` } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: Webhook }).data).toEqual({ ...WEBHOOK_SHAPE, id: body.data.id, owner_id: owner.user.id, workspace_id: owner.user.id, types: ['task.created'] });
    });
  });

  describe('who manages which', () => {
    it('when another user reaches a user’s endpoint, then every operation answers 404, and their list does not show it', async () => {
      const webhook = await newWebhook(owner);
      const stranger = await get().signUp();
      const answers = await Promise.all([
        stranger.http.get(`/api/v1/webhooks/${webhook.id}`),
        stranger.http.patch(`/api/v1/webhooks/${webhook.id}`).send({ enabled: false }),
        stranger.http.delete(`/api/v1/webhooks/${webhook.id}`),
        stranger.http.get(`/api/v1/webhooks/${webhook.id}/deliveries`),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Webhook not found' });
      }
      const list = await stranger.http.get('/api/v1/webhooks').expect(200);
      expect(list.body.data).toEqual([]);
      expect((await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200)).body.data.enabled).toBe(true);
    });

    it('when an admin or a service key manages endpoints, then they reach every one; a service key’s has no owner', async () => {
      const webhook = await newWebhook(owner);
      const admin = await get().signUp({ role: 'admin' });
      await admin.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200);
      const service = (path: string) => get().anonymous.get(path).set('X-API-Key', TEST_API_KEY);
      await service(`/api/v1/webhooks/${webhook.id}`).expect(200);
      const byService = await get().anonymous.post('/api/v1/webhooks').set('X-API-Key', TEST_API_KEY).send({ url: PUBLIC_URL });
      expect(byService.status).toBe(201);
      expect(byService.body.data.owner_id).toBeNull();
      const adminList = await admin.http.get('/api/v1/webhooks?limit=100').expect(200);
      expect(adminList.body.data.map((item: Webhook) => item.id)).toEqual(expect.arrayContaining([webhook.id, byService.body.data.id]));
      await admin.http.delete(`/api/v1/webhooks/${byService.body.data.id}`).expect(204);
    });

    it('when an agent key manages endpoints, then every operation answers 403', async () => {
      const agent = (await owner.http.post('/api/v1/agents').send({ name: 'hooked', type: 'type_a' }).expect(201)).body.data.id;
      const key = (await owner.http.post(`/api/v1/agents/${agent}/keys`).send({ name: 'k' }).expect(201)).body.data.secret as string;
      const webhook = await newWebhook(owner);
      const as = get().anonymous;
      const answers = await Promise.all([
        as.get('/api/v1/webhooks').set('X-API-Key', key),
        as.post('/api/v1/webhooks').set('X-API-Key', key).send({ url: PUBLIC_URL }),
        as.get(`/api/v1/webhooks/${webhook.id}`).set('X-API-Key', key),
        as.patch(`/api/v1/webhooks/${webhook.id}`).set('X-API-Key', key).send({ enabled: false }),
        as.delete(`/api/v1/webhooks/${webhook.id}`).set('X-API-Key', key),
        as.get(`/api/v1/webhooks/${webhook.id}/deliveries`).set('X-API-Key', key),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'FORBIDDEN' });
      }
    });

    it('when nobody is signed in, then 401', async () => {
      expect((await get().anonymous.get('/api/v1/webhooks')).status).toBe(401);
      expect((await get().anonymous.post('/api/v1/webhooks').send({ url: PUBLIC_URL })).status).toBe(401);
    });
  });

  describe('refusals', () => {
    it.each([
      ['no url', {}],
      ['a url that is not one', { url: 'not a url' }],
      ['an ftp url', { url: 'ftp://93.184.216.34/hook' }],
      ['a url of 2,049 characters', { url: `https://93.184.216.34/${'a'.repeat(2049 - 'https://93.184.216.34/'.length)}` }],
      ['an unknown event type', { url: PUBLIC_URL, types: ['agent.exploded'] }],
      ['an empty types list', { url: PUBLIC_URL, types: [] }],
      ['a type twice', { url: PUBLIC_URL, types: ['task.created', 'task.created'] }],
      ['a description of 501 characters', { url: PUBLIC_URL, description: 'x'.repeat(501) }],
      ['a secret of its own', { url: PUBLIC_URL, secret: 'whsec_chosen' }],
      ['credentials in the url', { url: 'https://user:pass@93.184.216.34/hook' }],
    ])('when the body has %s, then 400 VALIDATION_ERROR and no endpoint is made', async (_what, body) => {
      const before = await get().database.db('webhooks').count({ n: '*' }).first();
      const res = await owner.http.post('/api/v1/webhooks').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: expect.any(String) });
      const after = await get().database.db('webhooks').count({ n: '*' }).first();
      expect(Number(after?.n)).toBe(Number(before?.n));
    });

    it.each([
      ['loopback', 'http://127.0.0.1:8080/hook'],
      ['IPv6 loopback', 'http://[::1]/hook'],
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
      ['a private network', 'http://10.0.0.1/hook'],
      ['IPv4 inside IPv6', 'http://[::ffff:127.0.0.1]/hook'],
      ['carrier-grade NAT', 'http://100.64.0.1/hook'],
      ['the unspecified address', 'http://0.0.0.0/hook'],
      ['a name that resolves to loopback', 'http://localhost:9/hook'],
    ])('when the url names %s, then 400 naming url, on create and on change', async (_what, url) => {
      const res = await owner.http.post('/api/v1/webhooks').send({ url });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url', message: expect.any(String) }] });
      const webhook = await newWebhook(owner);
      const change = await owner.http.patch(`/api/v1/webhooks/${webhook.id}`).send({ url });
      expect(change.status).toBe(400);
      expect(change.body.error.details[0].field).toBe('url');
      expect((await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200)).body.data.url).toBe(PUBLIC_URL);
    });

    it('when a name does not resolve at all, then 400 naming url', async () => {
      const res = await owner.http.post('/api/v1/webhooks').send({ url: 'https://no-such-host.invalid/hook' });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: 'url', message: 'host no-such-host.invalid does not resolve' });
    });

    it('when a change is empty, then 400', async () => {
      const webhook = await newWebhook(owner);
      expect((await owner.http.patch(`/api/v1/webhooks/${webhook.id}`).send({})).status).toBe(400);
    });

    it('when the id names no endpoint, then 404', async () => {
      for (const id of ['0190a8f0-0000-7000-8000-000000000000', 'not-a-uuid']) {
        const res = await owner.http.get(`/api/v1/webhooks/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Webhook not found' });
      }
    });
  });
});

describeEachDatabase(
  'webhook endpoints in production',
  (get) => {
    it('when the url is plain http, then 400: production sends events over https only', async () => {
      const owner = await get().signUp();
      const res = await owner.http.post('/api/v1/webhooks').send({ url: 'http://93.184.216.34/hook' });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: 'url', message: 'must use https' });
      expect((await owner.http.post('/api/v1/webhooks').send({ url: PUBLIC_URL })).status).toBe(201);
    });
  },
  { webhooks: { allowPrivateNetworks: false, httpsOnly: true, timeoutMs: 10_000, retryScheduleMs: [5000], pollMs: 1000, concurrency: 8 } },
);

describeEachDatabase(
  'webhook endpoints with private networks allowed',
  (get) => {
    it('when WEBHOOK_ALLOW_PRIVATE_NETWORKS is on, then loopback endpoints are accepted', async () => {
      const owner = await get().signUp();
      for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://localhost:9/hook']) {
        expect((await owner.http.post('/api/v1/webhooks').send({ url })).status).toBe(201);
      }
    });
  },
  { webhooks: { allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 10_000, retryScheduleMs: [5000], pollMs: 1000, concurrency: 8 } },
);
