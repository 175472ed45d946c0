import type { Config } from '../config/config';
import { connectDatabase, type Database } from '../data/database';
import { createStore } from '../data/store';
import { ensureAdmin } from '../domain/users';
import type { Logger } from '../logger';

/**
 * Connects (migrating the schema) and, with `admin`, creates the configured first admin when it
 * does not exist yet. A cluster's workers pass `admin: false`: their primary has done it once.
 */
export async function connectAndPrepare(config: Config, logger: Logger, { admin }: { admin: boolean }): Promise<Database> {
  const db = await connectDatabase(config.database, { logger });
  if (admin && config.auth.admin) {
    const outcome = await ensureAdmin(createStore(db), config.auth.admin);
    logger.info({ admin: config.auth.admin.email, outcome }, outcome === 'created' ? 'created the first admin' : 'admin account exists: left unchanged');
  }
  return db;
}
