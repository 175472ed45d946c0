import cluster from 'node:cluster';
import { limitHeapGrowth } from './heap-limits';

/**
 * The entry point: sizes V8's heap, reads the configuration, then serves from this process
 * (WEB_CONCURRENCY=1, or a cluster worker) or runs the cluster primary. Each loads only its own
 * modules: the primary never builds the app, and starts its workers seconds sooner without it.
 */
async function main(): Promise<void> {
  // Before any other module loads: the young generation keeps the size it has when this runs.
  limitHeapGrowth();
  const { ConfigError, loadConfig } = await import('../config/config');
  const { createLogger } = await import('../logger');
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
