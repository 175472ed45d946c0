import cluster from 'node:cluster';
import { ConfigError, loadConfig } from '../config/config';
import { createLogger } from '../logger';

/**
 * The entry point: reads the configuration, then serves from this process (WEB_CONCURRENCY=1, or
 * a cluster worker) or runs the cluster primary. Each loads only its own modules: the primary
 * never builds the app, and starts its workers seconds sooner without it.
 */
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
  if (config.webConcurrency > 1 && cluster.isPrimary) {
    const { runPrimary } = await import('./cluster');
    return runPrimary(config, createLogger(config));
  }
  const { serve } = await import('./serve');
  return serve(config, cluster.worker);
}

main().catch((error: unknown) => {
  console.error('agent fleet API failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
