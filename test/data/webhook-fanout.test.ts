import { randomUUID } from 'node:crypto';
import { newId, now } from '../../src/data/ids';
import { createStore } from '../../src/data/store';
import { fanOutEvents } from '../../src/domain/webhook-deliveries';
import { openTestDatabase, reachableDatabaseKinds, type TestDatabase } from '../support/harness';
import { insertEvent } from '../support/webhooks';

describe.each(reachableDatabaseKinds())('the webhook fan-out [%s]', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database?.close());

  it('when no endpoint is enabled, then the mark moves past the events with no delivery, and an endpoint created next receives only what follows', async () => {
    const { db } = database;
    const store = createStore(db);
    const earlier = [];
    for (let n = 0; n < 3; n++) earlier.push(await insertEvent(db, { type: 'agent.created', agent_id: randomUUID(), owner_id: null }));
    expect(await fanOutEvents(store)).toBe(0);
    expect(await store.webhooks.fanoutMark()).toBe(Number(earlier[2]));
    expect(await db('webhook_deliveries').count({ count: '*' }).first()).toEqual({ count: kind === 'pg' ? '0' : 0 });

    const at = now();
    const webhookId = newId();
    await store.webhooks.insert({ id: webhookId, owner_id: null, workspace_id: await store.workspaces.serviceId(), url: 'http://127.0.0.1:9/hook', types: null, description: null, enabled: true, created_at: at, updated_at: at, secret_sealed: 'sealed', after_event_id: await store.webhooks.newestEventId() });
    const later = await insertEvent(db, { type: 'agent.updated', agent_id: randomUUID(), owner_id: null });
    expect(await fanOutEvents(store)).toBe(1);
    expect((await db('webhook_deliveries').select('webhook_id', 'event_id')).map((row) => [row.webhook_id, String(row.event_id)])).toEqual([[webhookId, later]]);
    expect(await store.webhooks.fanoutMark()).toBe(Number(later));
  });
});
