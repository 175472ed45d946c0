/**
 * The benchmark's baseline: the same agent reads and writes with knex on SQLite, and nothing else.
 * No validation, no helmet, no logging, no metrics, no rate limit; the credential check is a plain
 * string comparison of X-API-Key. Started by scripts/bench.ts, never by the service.
 *
 * Env: PORT, MINIMAL_DB_FILE, MINIMAL_API_KEY.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { v7 as uuidv7 } from 'uuid';
import { connectDatabase } from '../src/data/database';

async function main(): Promise<void> {
  const filename = process.env.MINIMAL_DB_FILE;
  const apiKey = process.env.MINIMAL_API_KEY;
  if (!filename || !apiKey) throw new Error('MINIMAL_DB_FILE and MINIMAL_API_KEY are required');
  // The service's own schema, indexes and SQLite pragmas: the database work is the same.
  const db = await connectDatabase({ client: 'sqlite', filename });

  const app = express();
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/agents', (req, res, next) => {
    if (req.get('x-api-key') === apiKey) next();
    else res.status(403).json({ detail: 'Invalid API key' });
  });
  app.get('/agents', async (req, res) => {
    const skip = Number(req.query.skip ?? 0);
    const limit = Number(req.query.limit ?? 100);
    res.json(await db('agents').orderBy('id', 'asc').offset(skip).limit(limit));
  });
  app.get('/agents/:id', async (req, res) => {
    const agent = await db('agents').where({ id: req.params.id }).first();
    if (agent) res.json(agent);
    else res.status(404).json({ detail: 'Agent not found' });
  });
  app.post('/agents', express.json(), async (req, res) => {
    const timestamp = new Date().toISOString();
    const agent = { id: uuidv7(), owner_id: null, name: req.body.name, type: req.body.type, status: 'idle', created_at: timestamp, updated_at: timestamp };
    await db('agents').insert(agent);
    res.status(201).json(agent);
  });

  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  console.log(JSON.stringify({ msg: 'minimal app listening', port: (server.address() as AddressInfo).port }));
  process.on('SIGTERM', () => {
    server.close(() => void db.destroy().then(() => process.exit(0)));
    server.closeIdleConnections();
  });
}

main().catch((error: unknown) => {
  console.error('minimal app failed to start:', error);
  process.exit(1);
});
