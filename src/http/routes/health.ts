import { Router } from 'express';
import { pingDatabase, type Database } from '../../data/database';
import type { Handler } from '../typed-handler';

export function healthRoutes(db: Database): Router {
  const live: Handler<'getHealth'> = (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  };
  const ready: Handler<'getReadiness'> = async (_req, res) => {
    const database = (await pingDatabase(db)) ? 'up' : 'down';
    res
      .status(database === 'up' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: database === 'up' ? 'ready' : 'unavailable', checks: { database } });
  };
  return Router().get('/health', live).get('/health/ready', ready);
}
