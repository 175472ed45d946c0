// A CommonJS consumer: require() resolves the package's CommonJS build.
import { createAgentFleetClient, unwrap, AgentFleetError } from '@agent-fleet/client';

declare const process: { env: Record<string, string | undefined> };

async function main(): Promise<void> {
  const client = createAgentFleetClient({ baseUrl: process.env['BASE_URL'] ?? '', auth: { apiKey: process.env['API_KEY'] ?? '' } });
  const agent = await unwrap(client.POST('/agents', { body: { name: 'from-cjs', type: 'type_c' } }));
  const read = await unwrap(client.GET('/agents/{agent_id}', { params: { path: { agent_id: agent.id } } }));
  const missing = await client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'missing' } } });
  const notFound = missing.error?.error === 'not_found' ? missing.error.detail : undefined;
  let thrown = '';
  try {
    await unwrap(client.DELETE('/agents/{agent_id}', { params: { path: { agent_id: 'missing' } } }));
  } catch (error) {
    thrown = error instanceof AgentFleetError ? `${error.status}` : 'other';
  }
  console.log(JSON.stringify({ created: agent.name, read: read.status, notFound, thrown }));
}

void main();
