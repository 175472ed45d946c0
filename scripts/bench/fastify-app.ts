/**
 * The benchmark's reference framework: Fastify 5 as it is commonly deployed, over the service's SQL
 * on better-sqlite3 (agents-sql.ts). Route schemas from api.yaml (agent-schemas.ts) validate
 * requests (ajv) and serialise responses; @fastify/helmet, @fastify/cors and @fastify/rate-limit
 * run on every request, configured as the service configures their Express counterparts; Fastify's
 * own pino logger writes its request lines at info to a file. X-API-Key is a plain string compare.
 * Started by scripts/bench/apps.ts, bundled to plain JavaScript first.
 *
 * Env: as express-app.ts, plus BENCH_LOG_FILE.
 */
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { AgentCreate } from '../../src/model';
import { AGENT_CREATE_SCHEMA, AGENT_SCHEMA, LIST_QUERY_SCHEMA } from './agent-schemas';
import { openAgentsSql } from './agents-sql';
import { readAppEnv, requireEnv } from './app-env';

async function main(): Promise<void> {
  const env = readAppEnv(process.env);
  const sql = openAgentsSql(env.databaseFile, env.busyTimeoutMs);
  const app = Fastify({ logger: { level: 'info', file: requireEnv(process.env, 'BENCH_LOG_FILE') } });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { directives: { 'worker-src': ["'self'", 'blob:'], 'upgrade-insecure-requests': null } },
  });
  await app.register(fastifyCors, {
    origin: [`http://127.0.0.1:${env.port}`],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-ID', 'X-API-Key', 'api-version', 'If-Match', 'If-None-Match'],
    exposedHeaders: ['ETag', 'Last-Modified', 'Location', 'X-Request-ID', 'api-version', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    credentials: true,
    maxAge: 86_400,
  });
  // The limiter runs on every request; it must not answer 429 to the load itself.
  await app.register(fastifyRateLimit, { max: 1_000_000, timeWindow: 60_000 });

  const checkApiKey = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['x-api-key'] !== env.apiKey) await reply.code(401).send({ detail: 'Invalid API key' });
  };

  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Querystring: { skip: number; limit: number } }>(
    '/agents',
    { onRequest: checkApiKey, schema: { querystring: LIST_QUERY_SCHEMA, response: { 200: { type: 'array', items: AGENT_SCHEMA } } } },
    async (request) => sql.list(request.query.skip, request.query.limit),
  );
  app.get<{ Params: { agent_id: string } }>(
    '/agents/:agent_id',
    { onRequest: checkApiKey, schema: { params: { type: 'object', required: ['agent_id'], properties: { agent_id: { type: 'string' } } }, response: { 200: AGENT_SCHEMA } } },
    async (request, reply) => sql.find(request.params.agent_id) ?? reply.code(404).send({ detail: 'Agent not found' }),
  );
  app.post<{ Body: AgentCreate }>(
    '/agents',
    { onRequest: checkApiKey, schema: { body: AGENT_CREATE_SCHEMA, response: { 201: AGENT_SCHEMA } } },
    async (request, reply) => {
      const agent = sql.insert(request.body);
      return reply.code(201).header('location', `/agents/${agent.id}`).send(agent);
    },
  );

  await app.listen({ port: env.port, host: '127.0.0.1' });
  process.on('SIGTERM', () => {
    void app.close().then(() => {
      sql.close();
      process.exit(0);
    });
  });
}

main().catch((error: unknown) => {
  console.error('fastify app failed to start:', error);
  process.exit(1);
});
