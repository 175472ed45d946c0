/**
 * The benchmark's floor: bare Express 5 over the service's SQL on better-sqlite3 (agents-sql.ts),
 * without its per-body ETag. No middleware beyond express.json() on POST, no validation, logging, metrics or
 * rate limit; X-API-Key is compared as a plain string. Same bodies, statuses and Location as the
 * service. Started by scripts/bench/apps.ts, bundled to plain JavaScript first.
 *
 * Env: PORT, BENCH_DB_FILE (already migrated), BENCH_API_KEY, BENCH_BUSY_TIMEOUT_MS; with
 * BENCH_EXPRESS_CLASSES=1 (the `express-classes` app), Node's server makes requests and responses
 * with Express's prototypes already in place, as the service's HTTP server does
 * (src/http/express-message-classes.ts), instead of `app.listen`.
 */
import { createServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { AgentCreate } from '../../src/model';
import { expressMessageClassesOf } from '../../src/http/express-message-classes';
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

const server = process.env.BENCH_EXPRESS_CLASSES === '1' ? createServer(expressMessageClassesOf(app), app).listen(env.port, '127.0.0.1') : app.listen(env.port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => {
    sql.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
