import { startTestApp, TEST_API_KEY, TEST_METRICS_TOKEN, type DatabaseKind, type TestApp } from '../harness';
import type { Principal } from './fixtures';

export interface FuzzTarget {
  baseUrl: string;
  apiKey?: string;
  metricsToken?: string;
  origin: string;
  admin?: () => Promise<Principal>;
  /** Declared headers the target always sends though api.yaml cannot require them (see ContractOptions). */
  alwaysSent?: readonly string[];
  close(): Promise<void>;
}

/**
 * A test app served over HTTP by the service's own server, with its API key, trusted origin and
 * admins. The harness builds the app without Redis: rate limits are counted in process, so every
 * limited answer carries RateLimit headers.
 */
export async function targetOf(app: TestApp): Promise<FuzzTarget> {
  return {
    alwaysSent: ['RateLimit', 'RateLimit-Policy'],
    baseUrl: await app.listen(),
    apiKey: TEST_API_KEY,
    metricsToken: TEST_METRICS_TOKEN,
    origin: app.config.publicUrl,
    admin: async () => {
      const admin = await app.signUp({ role: 'admin' });
      return { id: admin.user.id, token: admin.token };
    },
    close: () => app.close(),
  };
}

/** The app on a fresh database, for the CLI. */
export async function startInProcessTarget(kind: DatabaseKind): Promise<FuzzTarget> {
  // Silent: the harness keeps every log line in memory, and a long run writes hundreds of thousands.
  return targetOf(await startTestApp(kind, { logLevel: 'silent' }));
}
