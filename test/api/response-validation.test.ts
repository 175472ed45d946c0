import express from 'express';
import supertest from 'supertest';
import { errorHandler } from '../../src/http/error-handler';
import { createMetrics } from '../../src/http/observability';
import { loadApiDocument, validateAgainst } from '../../src/http/openapi';
import { assignRequestId } from '../../src/http/request-id';
import { createLogger } from '../../src/logger';
import { LogCapture } from '../support/harness';

/** A handler that breaks the contract, behind the same validator and error handler as the app. */
function appWithHandler(body: unknown) {
  const logs = new LogCapture();
  const logger = createLogger({ logLevel: 'info' }, logs);
  const app = express();
  app.use(assignRequestId, express.json());
  app.use(validateAgainst(loadApiDocument(), { validateResponses: true }));
  app.get('/agents/:agent_id', (_req, res) => {
    res.json(body);
  });
  app.use(errorHandler(logger, createMetrics()));
  return { http: supertest(app), logs };
}

describe('response validation', () => {
  it('when a handler answers a body api.yaml does not allow, then the client gets 500 internal_error and the log says why', async () => {
    const { http, logs } = appWithHandler({ id: 'x', name: 'a', type: 'type_z', status: 'idle', secret: 'leak' });
    const res = await http.get('/agents/0190a8f0-0000-7000-8000-000000000000');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
    expect(res.text).not.toContain('leak');
    expect(logs.text()).toMatch(/additional properties|must have required property/);
  });

  it('when a handler answers a body api.yaml allows, then it passes untouched', async () => {
    const agent = {
      id: '0190a8f0-0000-7000-8000-000000000000',
      owner_id: null,
      name: 'ok',
      type: 'type_a',
      status: 'idle',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    const { http } = appWithHandler(agent);
    await http.get(`/agents/${agent.id}`).expect(200, agent);
  });

  it('when an /api handler fails unexpectedly, then 500 INTERNAL_ERROR says only Internal Server Error', async () => {
    const logs = new LogCapture();
    const app = express();
    app.use(assignRequestId, express.json());
    app.use(validateAgainst(loadApiDocument(), { validateResponses: true }));
    app.get('/api/v1/agents', () => {
      throw new Error('connection string postgres://admin:hunter2@db leaked?');
    });
    app.use(errorHandler(createLogger({ logLevel: 'info' }, logs), createMetrics()));
    const res = await supertest(app).get('/api/v1/agents').set('X-Request-ID', 'boom-1');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error', requestId: 'boom-1' } });
    expect(res.text).not.toContain('hunter2');
    expect(logs.text()).toContain('boom-1');
  });
});
