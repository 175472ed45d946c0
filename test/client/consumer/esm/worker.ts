// A consumer's worker process: an agent key sent as X-API-Key, a lease of TTL_SECONDS, and a handler
// that never finishes (it ignores its signal too), so that the process can be killed mid-task.
// Each worker event is a JSON line on stdout.
import { createAgentFleetClient, createWorker } from '@agent-fleet/client';

declare const process: { env: Record<string, string | undefined>; stdout: { write(text: string): boolean } };

const client = createAgentFleetClient({ baseUrl: process.env['BASE_URL'] ?? '', auth: { apiKey: process.env['AGENT_KEY'] ?? '' } });
const worker = createWorker(client, {
  agentId: process.env['AGENT_ID'] ?? '',
  ttlSeconds: Number(process.env['TTL_SECONDS'] ?? 60),
  handler: () => new Promise<never>(() => undefined),
  onEvent: (event) => {
    const line = { type: event.type, ...('lease' in event && event.lease !== undefined ? { taskId: event.lease.task_id, leaseId: event.lease.id } : {}) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  },
});
worker.start();
await worker.done;
