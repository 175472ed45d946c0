/** What the comparison apps read from the environment apps.ts gives them. */
export interface AppEnv {
  port: number;
  /** A SQLite file the service's migrations already ran on. */
  databaseFile: string;
  apiKey: string;
  /** The service's SQLite busy_timeout (DEFAULT_DATABASE_LIMITS in src/config/config.ts). */
  busyTimeoutMs: number;
}

export function requireEnv(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required (the apps are started by scripts/bench/apps.ts)`);
  return value;
}

export function readAppEnv(env: NodeJS.ProcessEnv): AppEnv {
  return {
    port: Number(requireEnv(env, 'PORT')),
    databaseFile: requireEnv(env, 'BENCH_DB_FILE'),
    apiKey: requireEnv(env, 'BENCH_API_KEY'),
    busyTimeoutMs: Number(requireEnv(env, 'BENCH_BUSY_TIMEOUT_MS')),
  };
}
