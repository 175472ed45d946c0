/**
 * Contract fuzzer: `npm run fuzz -- --requests 100000 --seed 7 [--database sqlite|pg] [--base-url URL] [--concurrency C] [--first N]`.
 *
 * Without --base-url it serves the app in this process on a fresh database (SQLite by default).
 * With --base-url it fuzzes a running service; credentials come from the environment:
 *   FUZZ_API_KEY                          an accepted API key (otherwise API-key requests use a wrong one)
 *   FUZZ_METRICS_TOKEN                    the service's METRICS_TOKEN (otherwise /metrics is scraped with a wrong one)
 *   FUZZ_ADMIN_EMAIL, FUZZ_ADMIN_PASSWORD an admin's sign-in (otherwise only ordinary users are signed up)
 *   FUZZ_ORIGIN                           the Origin allowed for cookie-authenticated changes (default: the base URL's)
 * Every answer is checked against api.yaml; each distinct failure is printed once with a curl line.
 * Exits 1 when any request failed.
 */
import { parseArgs } from 'node:util';
import { failureCount, formatFailure, formatSummary, runFuzzer } from '../test/support/fuzzer/run';
import type { Principal } from '../test/support/fuzzer/fixtures';
import { startInProcessTarget, type FuzzTarget } from '../test/support/fuzzer/in-process';

async function signInAdmin(baseUrl: string, email: string, password: string): Promise<Principal> {
  const token = await fetch(`${baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
  });
  if (token.status !== 200) throw new Error(`FUZZ_ADMIN_EMAIL could not sign in: ${token.status} ${await token.text()}`);
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  const me = await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  const id = ((await me.json()) as { data: { id: string } }).data.id;
  return { id, token: accessToken };
}

function remoteTarget(baseUrl: string): FuzzTarget {
  const email = process.env.FUZZ_ADMIN_EMAIL;
  const password = process.env.FUZZ_ADMIN_PASSWORD;
  return {
    baseUrl,
    apiKey: process.env.FUZZ_API_KEY || undefined,
    metricsToken: process.env.FUZZ_METRICS_TOKEN || undefined,
    origin: process.env.FUZZ_ORIGIN || new URL(baseUrl).origin,
    admin: email && password ? () => signInAdmin(baseUrl, email, password) : undefined,
    close: async () => {},
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      database: { type: 'string', default: 'sqlite' },
      'base-url': { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      first: { type: 'string', default: '0' },
    },
  });
  const requests = Number(values.requests);
  const seed = Number(values.seed);
  const database = values.database;
  if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed)) throw new Error('--requests and --seed take integers');
  if (database !== 'sqlite' && database !== 'pg') throw new Error('--database is sqlite or pg');
  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  const target = baseUrl ? remoteTarget(baseUrl) : await startInProcessTarget(database);
  console.log(`fuzzing ${baseUrl ?? `the app in process on ${database} at ${target.baseUrl}`}: ${requests} requests, seed ${seed}`);
  const started = Date.now();
  try {
    const summary = await runFuzzer({
      baseUrl: target.baseUrl,
      seed,
      requests,
      firstIndex: Number(values.first),
      concurrency: Number(values.concurrency),
      apiKey: target.apiKey,
      metricsToken: target.metricsToken,
      origin: target.origin,
      admin: target.admin,
      alwaysSent: target.alwaysSent,
      onProgress: (done, distinct) => console.log(`  ${done} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${distinct} distinct failures so far`),
      onFailure: (failure) => console.log(`\n${formatFailure(failure)}\n`),
    });
    console.log(`\n${formatSummary(summary)}`);
    return failureCount(summary) > 0 ? 1 : 0;
  } finally {
    await target.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
