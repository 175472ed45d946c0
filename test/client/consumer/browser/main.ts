// Bundled for the browser (esbuild, platform "browser") from the installed package.
import { createAgentFleetClient, unwrap } from '@agent-fleet/client';

async function run(apiKey: string): Promise<unknown> {
  const client = createAgentFleetClient({ baseUrl: location.origin, auth: { apiKey }, cache: true });
  const agent = await unwrap(client.POST('/api/v1/agents', { body: { name: 'from-the-browser', type: 'type_b' } }));
  const listed: string[] = [];
  for await (const item of client.paginate('/api/v1/agents', { params: { query: { limit: 2, fields: ['name'] } } })) listed.push(item.name);
  const again = await unwrap(client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agent.data.id } } }));
  const cached = await unwrap(client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agent.data.id } } }));
  return { created: agent.data.name, listed: listed.includes('from-the-browser'), cached: cached.data.name === again.data.name };
}

(globalThis as unknown as { runClient: typeof run }).runClient = run;
