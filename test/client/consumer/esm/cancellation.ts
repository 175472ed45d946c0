// A consumer's program, run with `node --expose-gc`: requests to endpoints that answer after 5 s,
// cancelled at 300 ms while garbage collections run.
import { createAgentFleetClient } from '@agent-fleet/client';

declare const process: { env: Record<string, string | undefined> };
declare const gc: () => void;
const baseUrl = process.env['SLOW_URL'] ?? '';
const report: Record<string, { outcome: string; ms: number }> = {};

/** How the call ended (the error's name, or the status answered) and after how long, collecting garbage all along. */
async function outcomeOf(call: () => Promise<{ response: Response }>): Promise<{ outcome: string; ms: number }> {
  const collecting = setInterval(() => gc(), 10);
  const started = Date.now();
  try {
    const outcome = await call().then(
      (result) => `answered ${result.response.status}`,
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    );
    return { outcome, ms: Date.now() - started };
  } finally {
    clearInterval(collecting);
  }
}

function abortedAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

const client = createAgentFleetClient({ baseUrl, retry: false });
// The answer's headers come after 5 s.
report['beforeHeaders'] = await outcomeOf(() => client.GET('/health', { signal: abortedAfter(300) }));
// The headers come at once, the end of the body after 5 s.
report['duringBody'] = await outcomeOf(() => client.GET('/health/ready', { signal: abortedAfter(300) }));
// The client's own per-attempt timeout.
report['timeout'] = await outcomeOf(() => createAgentFleetClient({ baseUrl, retry: false, timeoutMs: 300 }).GET('/health'));

console.log(JSON.stringify(report));
