import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createTokenService } from './auth/tokens';
import { connectDatabase } from './data/database';
import { connectRedis } from './data/redis';
import { createStore } from './data/store';
import { ensureAdmin } from './domain/users';
import { prepareDrain } from './http/drain';
import { createHttpServer } from './http/http-server';
import { createMetricsServer } from './http/metrics-server';
import { createMetrics, observeRedis } from './http/observability';
import { createLogger } from './logger';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  for (const warning of config.warnings) logger.warn(warning);
  const tokens = createTokenService(config.auth.jwt);
  await tokens.ready();
  const db = await connectDatabase(config.database, { logger });
  if (config.auth.admin) {
    const outcome = await ensureAdmin(createStore(db), config.auth.admin);
    logger.info({ admin: config.auth.admin.email, outcome }, outcome === 'created' ? 'created the first admin' : 'admin account exists: left unchanged');
  }
  const metrics = createMetrics();
  const redis = config.redis ? await connectRedis(config.redis, logger, observeRedis(metrics)) : undefined;
  const lifecycle = { draining: false };
  const app = buildApp({ config, db, logger, tokens, redis, metrics, lifecycle });

  const server = createHttpServer(app, { logger, metrics, timeouts: config.http }).listen(config.port, config.host);
  const drain = prepareDrain(server);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.host, database: config.database.client }, `agent fleet API listening on http://localhost:${port}`);

  let metricsServer: Server | undefined;
  if (config.metrics.port !== undefined) {
    metricsServer = createMetricsServer({ metrics, logger, timeouts: config.http }).listen(config.metrics.port, config.metrics.host);
    await new Promise<void>((resolve, reject) => metricsServer?.once('listening', resolve).once('error', reject));
    const address = metricsServer.address() as AddressInfo;
    logger.info({ metricsPort: address.port, metricsHost: config.metrics.host }, `metrics listening on ${config.metrics.host}:${address.port}/metrics`);
  }

  const stop = async (signal: string) => {
    if (lifecycle.draining) return;
    // Readiness answers 503 from here on.
    lifecycle.draining = true;
    logger.info({ signal, inFlight: drain.inFlight() }, 'draining in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing the remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // A scrape is short: the metrics listener just stops.
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await drain.start();
    await db.destroy();
    await redis?.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('agent fleet API failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
