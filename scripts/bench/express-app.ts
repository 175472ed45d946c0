/**
 * The benchmark's floor: bare Express 5 over the service's SQL on better-sqlite3 (agents-sql.ts),
 * without its per-body ETag. No middleware beyond express.json() on POST, no validation, logging, metrics or
 * rate limit; X-API-Key is compared as a plain string. Same bodies, statuses and Location as the
 * service. Started by scripts/bench/apps.ts, bundled to plain JavaScript first.
 *
 * Env: PORT, BENCH_DB_FILE (already migrated), BENCH_API_KEY, BENCH_BUSY_TIMEOUT_MS; with
 * BENCH_EXPRESS_CLASSES=1 (the `express-classes` app), Node's server makes requests and responses
 * with Express's prototypes already in place, as the service's HTTP server does
 * (src/http/http-server.ts), instead of `app.listen`.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { AgentCreate } from '../../src/model';
import { openAgentsSql } from './agents-sql';
import { readAppEnv } from './app-env';

const env = readAppEnv(process.env);
const sql = openAgentsSql(env.databaseFile, env.busyTimeoutMs);

/** Answers 401 itself when the key is wrong. */
function checkApiKey(req: Request, res: Response): boolean {
  if (req.get('x-api-key') === env.apiKey) return true;
  res.status(401).json({ detail: 'Invalid API key' });
  return false;
}

const app = express();
// As lean as Express gets: no ETag hashed over each body (the service sets its own where it
// declares one) and no X-Powered-By. Both are Express defaults that cost about 10 % of a read here.
app.set('etag', false);
app.disable('x-powered-by');
app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});
app.get('/agents', (req, res) => {
  if (!checkApiKey(req, res)) return;
  res.json(sql.list(Number(req.query.skip ?? 0), Number(req.query.limit ?? 100)));
});
app.get('/agents/:id', (req, res) => {
  if (!checkApiKey(req, res)) return;
  const agent = sql.find(req.params.id);
  if (agent) res.json(agent);
  else res.status(404).json({ detail: 'Agent not found' });
});
app.post('/agents', express.json(), (req, res) => {
  if (!checkApiKey(req, res)) return;
  const agent = sql.insert(req.body as AgentCreate);
  res.status(201).location(`/agents/${agent.id}`).json(agent);
});

/** Node's message classes, run on objects whose prototypes are Express's from the start. */
function expressClasses(): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  const request = function (this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    (IncomingMessage as unknown as (this: IncomingMessage, ...rest: typeof args) => void).apply(this, args);
  } as unknown as typeof IncomingMessage;
  request.prototype = app.request;
  const response = function (this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    (ServerResponse as unknown as (this: ServerResponse, ...rest: typeof args) => void).apply(this, args);
  } as unknown as typeof ServerResponse;
  response.prototype = app.response as unknown as ServerResponse;
  return { IncomingMessage: request, ServerResponse: response };
}

const server = process.env.BENCH_EXPRESS_CLASSES === '1' ? createServer(expressClasses(), app).listen(env.port, '127.0.0.1') : app.listen(env.port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => {
    sql.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
