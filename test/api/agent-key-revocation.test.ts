import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';
import { describeWithPostgres } from '../support/harness';

const API_KEY = 'revocation-service-key-0123456789abcdef';

/** Each process looks a key up in the database on every request: a revocation on one holds on the other from its answer on. */
function revocationAcrossProcesses(processes: ReturnType<typeof useServerProcesses>, databaseUrl: () => Promise<string>) {

  it('when a key is revoked on one instance, then the other refuses the key and its token at once', async () => {
    const url = await databaseUrl();
    const first = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: url }));
    const one = `http://127.0.0.1:${await listeningPort(first)}`;
    // The second starts once the first has migrated the database.
    const second = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: url }));
    const two = `http://127.0.0.1:${await listeningPort(second)}`;

    const json = { 'Content-Type': 'application/json', 'X-API-Key': API_KEY };
    const agent = (await (await fetch(`${one}/api/v1/agents`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'shared', type: 'type_a' }) })).json()) as { data: { id: string } };
    const agentId = agent.data.id;
    const created = await fetch(`${one}/api/v1/agents/${agentId}/keys`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'fleet worker' }) });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { data: { id: string; secret: string } }).data;
    const granted = await fetch(`${two}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.id, client_secret: key.secret }) });
    expect(granted.status).toBe(200);
    const token = ((await granted.json()) as { access_token: string }).access_token;

    const withKey = (base: string) => fetch(`${base}/agents/${agentId}`, { headers: { 'X-API-Key': key.secret } });
    const withToken = (base: string) => fetch(`${base}/agents/${agentId}`, { headers: { Authorization: `Bearer ${token}` } });
    // Both instances have used the key and its token: anything they might keep of it is warm.
    for (const base of [one, two]) {
      expect((await withKey(base)).status).toBe(200);
      expect((await withToken(base)).status).toBe(200);
    }

    expect((await fetch(`${one}/api/v1/agents/${agentId}/keys/${key.id}`, { method: 'DELETE', headers: { 'X-API-Key': API_KEY } })).status).toBe(204);

    const refusedKey = await withKey(two);
    expect(refusedKey.status).toBe(403);
    expect(await refusedKey.json()).toEqual({ error: 'forbidden', message: 'Invalid API key', detail: 'Invalid API key' });
    const refusedToken = await withToken(two);
    expect(refusedToken.status).toBe(401);
    expect(await refusedToken.json()).toEqual({ error: 'unauthorized', message: 'Could not validate credentials', detail: 'Could not validate credentials' });
    expect((await withKey(one)).status).toBe(403);
  });
}

describe('agent key revocation across server processes [sqlite]', () => {
  const processes = useServerProcesses();
  revocationAcrossProcesses(processes, async () => `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`);
});

describeWithPostgres('agent key revocation across server processes [pg]', () => {
  const schema = `test_revocation_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  beforeAll(async () => {
    await admin.raw('create schema ??', [schema]);
  });
  afterAll(async () => {
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  });
  revocationAcrossProcesses(useServerProcesses(), async () => {
    const url = new URL(PG_TEST_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  });
});
