import { Client } from 'pg';

export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export async function postgresReachable(): Promise<string | undefined> {
  const client = new Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
