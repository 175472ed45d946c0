// What a developer writes on a client @hey-api/openapi-ts generated from api.yaml: create agents with
// an API key, list them through filters, read one, use its required fields as they are.
import { client } from './hey/client.gen';
import { createAgentV1, getAgentV1, listAgentsV1 } from './hey/sdk.gen';
import { lengthsOf } from './read-required';

async function main(): Promise<void> {
  const [baseUrl = '', apiKey = '', suffix = ''] = process.argv.slice(2);
  client.setConfig({ baseUrl, headers: { 'X-API-Key': apiKey } });
  for (const [name, type] of [[`${suffix}-a`, 'type_a'], [`${suffix}-b`, 'type_b'], [`${suffix}-c`, 'type_b'], [`${suffix}-d`, 'type_b']] as const) {
    await createAgentV1({ body: { name, type }, throwOnError: true });
  }
  const listed = await listAgentsV1({ query: { 'filter[type]': { eq: 'type_b' }, 'filter[name]': { gte: `${suffix}-b`, lte: `${suffix}-c` }, sort: 'name' }, throwOnError: true });
  const [first] = listed.data.data;
  if (first === undefined) throw new Error('the filter found nothing');
  const { data } = await getAgentV1({ path: { agent_id: first.id }, throwOnError: true });
  const agent = data.data;
  console.log(JSON.stringify({ names: listed.data.data.map((item) => item.name), read: { name: agent.name, type: agent.type, status: agent.status, owner: agent.owner_id } }));
}

void lengthsOf;
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
