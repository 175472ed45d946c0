// A consumer's event watcher: an agent key (client_credentials) follows its agent's events while
// it creates tasks, stops with its signal, then again with a break. One JSON report on stdout.
import { createAgentFleetClient, unwrap, type FleetEvent } from '@agent-fleet/client';

declare const process: { env: Record<string, string | undefined>; stdout: { write(text: string): boolean } };

const baseUrl = process.env['BASE_URL'] ?? '';
const service = createAgentFleetClient({ baseUrl, auth: { apiKey: process.env['API_KEY'] ?? '' } });
const agent = (await unwrap(service.POST('/api/v1/agents', { body: { name: 'watched from outside', type: 'type_a' } }))).data;
const key = (await unwrap(service.POST('/api/v1/agents/{agent_id}/keys', { params: { path: { agent_id: agent.id } }, body: { name: 'watcher', scopes: ['tasks:read', 'tasks:write'] } }))).data;
const page = await unwrap(service.GET('/api/v1/events', { params: { query: { agent_id: agent.id } } }));
const created = typeof page === 'string' ? '' : (page.data[0]?.id ?? '');

const idempotencyKeys: (string | null)[] = [];
const asAgent = createAgentFleetClient({
  baseUrl,
  auth: { clientId: key.id, clientSecret: key.secret },
  fetch: async (request) => {
    if (request.method === 'POST' && !request.url.endsWith('/token')) idempotencyKeys.push(request.headers.get('Idempotency-Key'));
    return fetch(request);
  },
});
for (const title of ['one', 'two', 'three']) {
  await unwrap(asAgent.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: agent.id } }, body: { title } }));
}

const controller = new AbortController();
const seen: FleetEvent[] = [];
for await (const event of asAgent.events({ agentId: agent.id, types: ['task.created'], after: created, signal: controller.signal })) {
  seen.push(event);
  if (seen.length === 3) controller.abort();
}
let first: FleetEvent | undefined;
for await (const event of asAgent.events({ agentId: agent.id, after: created })) {
  first = event;
  break;
}
const ids = seen.map((event) => BigInt(event.id));
process.stdout.write(
  `${JSON.stringify({
    titles: seen.map((event) => event.data['title']),
    types: [...new Set(seen.map((event) => event.type))],
    agents: [...new Set(seen.map((event) => event.agent_id))].map((id) => id === agent.id),
    increasing: ids.every((id, index) => index === 0 || id > (ids[index - 1] ?? id)),
    afterBreak: first?.type,
    idempotencyKeys: idempotencyKeys.map((value) => typeof value === 'string' && value.length > 0),
    distinctKeys: new Set(idempotencyKeys).size,
  })}\n`,
);
