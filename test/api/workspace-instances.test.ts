import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { connectDatabase, type Database } from '../../src/data/database';
import { createHttpServer } from '../../src/http/http-server';
import { createMetrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { openEventStream } from '../support/event-stream-client';
import { describeWithPostgres, startTestApp, type TestApp } from '../support/harness';

describeWithPostgres('workspaces across two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let secondDb: Database;
  let second: ReturnType<typeof buildApp>;
  let secondServer: ReturnType<typeof createHttpServer>;
  let secondUrl: string;

  beforeAll(async () => {
    first = await startTestApp('pg', { events: { retentionHours: 168, heartbeatMs: 200, pollMs: 50, streamsPerPrincipal: 10 } });
    secondDb = await connectDatabase(first.database.config, { searchPath: first.database.searchPath });
    const logger = createLogger({ logLevel: 'silent' });
    second = buildApp({ config: first.config, db: secondDb, logger, tokens: first.tokens, metrics: createMetrics() });
    secondServer = createHttpServer(second, { logger, metrics: createMetrics(), timeouts: first.config.http });
    await new Promise<void>((resolve) => secondServer.listen(0, '127.0.0.1', resolve));
    secondUrl = `http://127.0.0.1:${(secondServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    secondServer.closeAllConnections();
    await new Promise((resolve) => secondServer.close(resolve));
    await secondDb.destroy();
    await first.close();
  });

  it('when a member is removed on one instance, then the other refuses them the workspace at once and ends their open stream at its next keep-alive', async () => {
    const owner = await first.signUp();
    const member = await first.signUp();
    const workspace = (await owner.http.post('/api/v1/workspaces').send({ name: 'Two instances' }).expect(201)).body.data;
    const { token } = (await owner.http.post(`/api/v1/workspaces/${workspace.id}/invitations`).send({ email: member.user.email, role: 'operator' }).expect(201)).body.data;
    await member.http.post('/api/v1/invitations/accept').send({ token }).expect(200);
    const agent = (await owner.http.post('/api/v1/agents').send({ name: 'shared', type: 'type_a', workspace_id: workspace.id }).expect(201)).body.data;
    const onSecond = supertest.agent(second).set('Authorization', `Bearer ${member.token}`);
    await onSecond.get(`/api/v1/agents/${agent.id}`).expect(200);
    const stream = await openEventStream(`${secondUrl}/api/v1/events`, { Authorization: `Bearer ${member.token}` });
    try {
      await owner.http.delete(`/api/v1/workspaces/${workspace.id}/members/${member.user.id}`).expect(204);
      await onSecond.get(`/api/v1/agents/${agent.id}`).expect(404);
      await onSecond.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'no' }).expect(404);
      await stream.ended;
    } finally {
      stream.close();
    }
  });
});
