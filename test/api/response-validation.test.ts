import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { loadApiDocument } from '../../src/contract/openapi';
import { compileRouteTable } from '../../src/contract/route-table';
import { createValidation } from '../../src/http/validation';
import type { OperationHandlers } from '../../src/http/operations';
import { createLogger } from '../../src/logger';
import { LogCapture, openTestDatabase, testConfig, TEST_API_KEY } from '../support/harness';

const AGENT_ID = '0190a8f0-0000-7000-8000-000000000000';
/** A workspace's id (the answers below are made up; none is stored). */
const WORKSPACE_ID = '0190a8f0-0000-7000-8000-000000000001';

/** The service with one handler of the operation table replaced: the same chain, validator and error handler. */
async function appWith(handlers: Partial<OperationHandlers>) {
  const database = await openTestDatabase('sqlite');
  const logs = new LogCapture();
  const config = testConfig({ database: database.config, validateResponses: true });
  const app = buildApp({ config, db: database.db, logger: createLogger({ logLevel: 'info' }, logs), handlers });
  return { http: supertest(app), logs, close: () => database.close() };
}

describe('response validation', () => {
  it('when a handler answers a body api.yaml does not allow, then the client gets 500 internal_error and the log says why', async () => {
    const app = await appWith({ getAgent: (_req, res) => void res.json({ id: 'x', name: 'a', type: 'type_z', status: 'idle', secret: 'leak' } as never) });
    try {
      const res = await app.http.get(`/agents/${AGENT_ID}`).set('X-API-Key', TEST_API_KEY);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
      expect(res.text).not.toContain('leak');
      expect(app.logs.text()).toMatch(/additional properties|must have required property/);
    } finally {
      await app.close();
    }
  });

  it('when a handler answers a body api.yaml allows, then it passes untouched', async () => {
    const agent = { id: AGENT_ID, owner_id: null, workspace_id: WORKSPACE_ID, name: 'ok', type: 'type_a' as const, status: 'idle' as const, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', max_concurrency: null };
    const app = await appWith({ getAgent: (_req, res) => void res.json(agent) });
    try {
      await app.http.get(`/agents/${agent.id}`).set('X-API-Key', TEST_API_KEY).expect(200, agent);
    } finally {
      await app.close();
    }
  });

  it('when a handler answers timestamps that are not dates (one of them the same as a valid answer read before), then each answer is 500, every time, and a valid one still passes', async () => {
    const valid = { id: AGENT_ID, owner_id: null, workspace_id: WORKSPACE_ID, name: 'ok', type: 'type_a' as const, status: 'idle' as const, created_at: '2026-02-28T23:59:59.000Z', updated_at: '2026-02-28T23:59:59.000Z', max_concurrency: null };
    const answers = [valid, { ...valid, updated_at: '2026-02-30T00:00:00.000Z' }, { ...valid, created_at: '2026-02-28T24:00:00.000Z' }, { ...valid, created_at: '2026-13-01T00:00:00Z' }];
    let next = 0;
    const app = await appWith({ getAgent: (_req, res) => void res.json(answers[next++ % answers.length]) });
    try {
      // Twice round: the second time each timestamp's check is answered from what was kept.
      for (let round = 0; round < 2; round++) {
        await app.http.get(`/agents/${AGENT_ID}`).set('X-API-Key', TEST_API_KEY).expect(200, valid);
        for (let wrong = 1; wrong < answers.length; wrong++) {
          const res = await app.http.get(`/agents/${AGENT_ID}`).set('X-API-Key', TEST_API_KEY);
          expect(res.status).toBe(500);
          expect(res.body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
        }
      }
      expect(app.logs.text()).toMatch(/must match format \\+"date-time/);
    } finally {
      await app.close();
    }
  });

  it('when an /api handler fails unexpectedly, then 500 INTERNAL_ERROR says only Internal Server Error', async () => {
    const app = await appWith({
      listAgentsV1: () => {
        throw new Error('connection string postgres://admin:hunter2@db leaked?');
      },
    });
    try {
      const res = await app.http.get('/api/v1/agents').set('X-API-Key', TEST_API_KEY).set('X-Request-ID', 'boom-1');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error', requestId: 'boom-1' } });
      expect(res.text).not.toContain('hunter2');
      expect(app.logs.text()).toContain('boom-1');
    } finally {
      await app.close();
    }
  });
});

describe('the validators of every operation', () => {
  it('when each operation\'s request and response validators are compiled, then every schema they reference resolves', () => {
    const document = loadApiDocument();
    const validationOf = createValidation(document, { validateResponses: true });
    const failures: string[] = [];
    // A request or an answer the contract refuses carries its HTTP status; a schema that does not compile does not.
    const attempt = (what: string, run: () => void) => {
      try {
        run();
      } catch (error) {
        if (typeof (error as { status?: unknown }).status !== 'number') failures.push(`${what}: ${(error as Error).message}`);
      }
    };
    for (const operation of compileRouteTable(document).operations.values()) {
      const validation = validationOf(operation);
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
        const req = { method: operation.method, headers: { 'content-type': contentType }, originalUrl: operation.route.template, path: operation.route.template, query: {}, params: {}, body: {} };
        attempt(`${operation.operationId} request (${contentType})`, () => validation.request(req as never, {} as never, () => undefined));
        for (const status of Object.keys(operation.operation.responses ?? {})) {
          const res = { statusCode: Number(status), getHeader: () => undefined };
          attempt(`${operation.operationId} ${status}`, () => validation.response?.(req as never, res as never, {}));
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
