/**
 * The rate limiter's own cost per request, without HTTP: `npx tsx scripts/bench/rate-limit.ts`.
 *
 * Limiters are called with fake requests (on Express's own request prototype, so `req.ip` is
 * computed as in service) from a pool of clients, one call after another, each with a fresh fake
 * response. A warm-up round runs first. Figures are CPU time (user + system) per call, which a
 * busy machine disturbs less than wall time; the median round is reported.
 *
 *   - `service`: the `api` limiter of src/http/rate-limit.ts with its in-process store.
 *   - `library default`, `validate: false`: express-rate-limit alone (draft-8 headers, memory store).
 *   - `ipKeyGenerator`: express-rate-limit's key for an IPv6 address (/56), alone.
 *
 * Options: --calls=100000  --clients=1000  --rounds=5
 */
import { EventEmitter } from 'node:events';
import express from 'express';
import { ipKeyGenerator, rateLimit, type Options } from 'express-rate-limit';
import { loadConfig } from '../../src/config/config';
import { createRateLimiters } from '../../src/http/rate-limit';
import { createMetrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';

const option = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CALLS = option('calls', 100_000);
const CLIENTS = option('clients', 1000);
const ROUNDS = option('rounds', 5);

/** Just what express-rate-limit touches of a response. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  statusCode = 200;
  private readonly headers = new Map<string, unknown>();
  setHeader(name: string, value: unknown) {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  append(name: string, value: string) {
    const previous = this.headers.get(name.toLowerCase());
    this.headers.set(name.toLowerCase(), previous === undefined ? value : [previous, value].flat());
    return this;
  }
}

function requestsFrom(app: express.Express, addresses: string[]): express.Request[] {
  return addresses.map((remoteAddress) => {
    const req = Object.create(app.request) as express.Request;
    Object.assign(req, { method: 'GET', url: '/api/v1/agents', originalUrl: '/api/v1/agents', headers: { host: 'localhost' }, socket: { remoteAddress } });
    return req;
  });
}

/** CPU nanoseconds per call. */
async function measure(limiter: express.RequestHandler, requests: express.Request[]): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const req = requests[i % requests.length] as express.Request;
    const res = new FakeResponse() as unknown as express.Response;
    await new Promise<void>((resolve, reject) => limiter(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())));
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / CALLS;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_API_MAX: '1000000', RATE_LIMIT_USER_MAX: '1000000', RATE_LIMIT_ROOT_MAX: '1000000' });
  const app = express();
  app.set('trust proxy', config.trustProxy);
  const pools = {
    IPv4: requestsFrom(app, Array.from({ length: CLIENTS }, (_, i) => `198.51.${(i >> 8) & 255}.${i & 255}`)),
    IPv6: requestsFrom(app, Array.from({ length: CLIENTS }, (_, i) => `2001:db8:${i.toString(16)}:42::${(i * 7).toString(16)}`)),
  };
  const library = (extra: Partial<Options>) => () =>
    rateLimit({ windowMs: 60_000, limit: 1_000_000, identifier: 'api', standardHeaders: 'draft-8', legacyHeaders: false, logger: { warn: () => undefined, error: () => undefined }, ...extra });
  const variants: Record<string, () => express.RequestHandler> = {
    // Anonymous requests: counted by address, as the library's default counts every request.
    service: () => createRateLimiters({ limits: config.rateLimits, metrics: createMetrics(), logger: createLogger({ logLevel: 'silent' }) }).guard('api', undefined),
    'library default': library({}),
    'library, validate: false': library({ validate: false }),
  };
  const results = new Map<string, number[]>();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, create] of Object.entries(variants)) {
      for (const [family, requests] of Object.entries(pools)) {
        // A fresh limiter each round: its store starts empty, as after a restart.
        const ns = await measure(create(), requests);
        // Round 0 warms the JIT up.
        if (round > 0) results.set(`${name}, ${family}`, [...(results.get(`${name}, ${family}`) ?? []), ns]);
      }
    }
  }
  const keys: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) ipKeyGenerator(`2001:db8:${(i % CLIENTS).toString(16)}:42::1`, 56);
    const used = process.cpuUsage(started);
    keys.push(((used.user + used.system) * 1000) / CALLS);
  }
  console.log(`${CALLS} calls per round, ${CLIENTS} clients, median of ${ROUNDS} rounds, CPU ns per call (node ${process.version})`);
  for (const [name, values] of results) console.log(`  ${name.padEnd(36)} ${median(values).toFixed(0).padStart(7)}`);
  console.log(`  ${"ipKeyGenerator alone, IPv6 /56".padEnd(36)} ${median(keys).toFixed(0).padStart(7)}`);
}

void main();
